import Bind

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `TraceWorkload PATH EVENTS` records a real trace of about `EVENTS` events to `PATH`, with Bind's
/// own recorder (this executable must be built as the instrumented variant: `BIND_BENCH_VARIANT=instrumented`).
/// `Benchmarks/hooks/analysis.sh` times `bind-trace check` on what it writes.
///
/// The workload looks like an app showing cells. Ten long-lived models (each with an app-wide
/// observer) are updated all the time. Each cell, in a `BindTrace.scope`, makes its own Output fed
/// from one model, derives a map from it, binds a closure to the map (which updates another model:
/// causes nest three deep), a Binder to a view and a closure to the app's theme, sees eight model
/// updates, then unbinds; its Outputs are released when the cell goes away. One cell in 1000 binds
/// through an Output derived from the theme and drops that subscription's handle without unbinding,
/// so the theme keeps the derived Output alive and the leak finder has something to report; leaked
/// cells are no longer fed, so the trace grows linearly.
@main
struct TraceWorkload {
    /// Trace events one cell writes: 20 for the cell's scope, Outputs, binds (and the updates
    /// their initial values cause), unbinds and releases, and 4 per model update (the model, the
    /// cell's Output, its map, the model the cell's closure updates).
    static let eventsPerCell = 20 + 4 * updatesPerCell
    static let updatesPerCell = 8

    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "deep"),
            let events = Int(arguments[2]), events > 0
        else {
            fail("usage: TraceWorkload PATH EVENTS [deep]")
        }
        guard BindTrace.isEnabled else {
            fail("TraceWorkload: built without the Tracing trait (build with BIND_BENCH_VARIANT=instrumented)")
        }
        if arguments.count == 4 {
            deep(path: arguments[1], events: events)
            return
        }
        let app = App()
        do {
            try BindTrace.startRecording(toFile: arguments[1])
        } catch {
            fail("TraceWorkload: \(error)")
        }
        for cell in 0..<(events / eventsPerCell) { app.showCell(cell) }
        BindTrace.stopRecording()
        if app.total == 42 { print("") }  // keeps the delivered values observable
    }

    /// `TraceWorkload PATH EVENTS deep`: the shape of issue 39, propagations that run deep and fan
    /// out. A chain of 2,000 Outputs from the root: maps, and every fourth a combine (mapped to one
    /// value) of the chain's newest Output and one from the middle of a spine of maps that also
    /// starts at the root. Each root update runs the chain about 1,500 steps deep, far past Bind's
    /// deferral depth (128), each combine updating once more than the one before; the root updates
    /// until about `EVENTS` events are recorded.
    static func deep(path: String, events: Int) {
        let root = Output<Int>(value: 0).labeled("root")
        var steps = 0
        var spine = [root]
        var chain = root
        for index in 1..<2_000 {
            if index % 4 == 0 {
                chain = Output.combine(chain, spine[spine.count / 2]).map {
                    steps &+= 2
                    return $0.0 &+ $0.1
                }
            } else if index % 4 == 2 {
                spine.append(spine[spine.count - 1].map { $0 &+ 1 })
            } else {
                chain = chain.map {
                    steps &+= 1
                    return $0 &+ 1
                }
            }
        }
        var total = 0
        chain.bind { total &+= $0 }
        do {
            try BindTrace.startRecording(toFile: path)
        } catch {
            fail("TraceWorkload: \(error)")
        }
        // Each step writes one update (a combine's two: it and its map).
        root.update(withValue: 1)
        let perUpdate = max(1, steps)
        for value in 2...max(2, events / perUpdate) { root.update(withValue: value) }
        BindTrace.stopRecording()
        if total == 42 { print("") }
    }

    static func fail(_ message: String) -> Never {
        let line = Array((message + "\n").utf8)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
}

/// A view a Binder writes to.
final class TitleView {
    var title: String?
    var number = 0
}

final class App {
    let models: [Output<Int>]
    /// Long-lived and never updated while recording: every cell binds to it.
    let theme = Output<Int>(value: 0).labeled("theme")
    var total = 0
    var observers: [Subscription] = []

    init() {
        models = (0..<10).map { Output<Int>(value: 0).labeled("model \($0)") }
        for model in models {
            observers.append(model.bind { [unowned self] value in total &+= value })
        }
    }

    func showCell(_ cell: Int) {
        let model = models[cell % 10]
        let other = models[(cell + 3) % 10]
        let leaks = cell % 1000 == 999
        BindTrace.scope("cell") {
            let view = TitleView()
            let item = Output<Int>(value: cell)
            let feed = model.bind { value in item.update(withValue: value &+ 1) }
            let number = item.map { $0 &* 2 }
            let forward = number.bind { value in other.update(withValue: value) }
            let display = number.bind(to: Binder(view, \.number))
            // A leaking cell styles itself through an Output derived from the long-lived theme.
            let style = leaks ? theme.map { $0 } : theme
            let styling = style.bind { [weak view] value in view?.title = value == 0 ? nil : "dark" }
            for step in 1...TraceWorkload.updatesPerCell { model.update(withValue: cell &+ step) }
            forward.unsubscribe()
            number.unbind(for: display)
            feed.unsubscribe()
            // The classic cell leak: the style subscription is never unsubscribed and its handle is
            // dropped, and the long-lived theme keeps the derived Output alive (`check` reports a
            // leaked subscription and a leaked Output at these lines).
            if !leaks { styling.unsubscribe() }
        }
    }
}
