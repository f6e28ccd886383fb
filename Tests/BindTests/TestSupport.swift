import Bind
import Foundation

/// Collects the values a closure receives, from any thread.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [Value] = []

    /// Everything received so far, in order.
    var values: [Value] { lock.withLock { received } }

    var count: Int { lock.withLock { received.count } }

    func record(_ value: Value) {
        lock.withLock { received.append(value) }
    }

    /// A closure to bind: records each value it is called with.
    var closure: (Value) -> Void { { [self] value in record(value) } }
}

extension Output {
    /// Binds a fresh Recorder; returns it with the subscription.
    func recorded() -> (Recorder<Value>, Subscription) {
        let recorder = Recorder<Value>()
        let subscription = bind(recorder.closure)
        return (recorder, subscription)
    }
}

/// A Printable that keeps every line, for asserting on `debug(identifier:)`.
final class PrintSpy: Printable, @unchecked Sendable {
    private let lock = NSLock()
    private var printed: [String] = []

    var lines: [String] { lock.withLock { printed } }

    func print(_ value: String) {
        lock.withLock { printed.append(value) }
    }
}

/// A stand-in for a view: a class with properties that binders write to.
final class Label: BindableCompatible {
    var text: String?
    var count = 0
}

/// Runs `body` on `threads` real threads at once (not the cooperative pool, which has only as many
/// threads as cores) and returns when every one has finished.
func runOnThreads(_ threads: Int, _ body: @escaping @Sendable (_ index: Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        let thread = Thread {
            start.wait()
            body(index)
            group.leave()
        }
        thread.start()
    }
    for _ in 0..<threads { start.signal() }
    group.wait()
}
