import Bind
import Foundation

// A stopwatch screen: an app-wide clock, and a screen that schedules a timer and a block on its
// thread's run loop, then returns; both run later, when the run loop turns, in the screen's scope
// (a token taken when they were scheduled).
// Planted bugs: the timer's callback and the run-loop block bind to the clock and drop the
// Subscription.

final class Clock: Sendable {
    let ticks = Output<Int>(value: 0).labeled("clock ticks")
    let laps = Output<Int>(value: 0).labeled("laps")
}

final class StopwatchScreen: @unchecked Sendable {
    let clock: Clock
    let elapsedLabel = Label()
    let lapLabel = Label()
    let bag = SubscriptionContainer()
    private let lock = NSLock()
    private var pending = 0

    init(clock: Clock) { self.clock = clock }

    var isIdle: Bool { lock.withLock { pending == 0 } }

    func start(on runLoop: RunLoop, dropsSubscriptions: Bool) {
        let scope = BindTrace.currentScopeToken
        lock.withLock { pending = 2 }
        let timer = Timer(timeInterval: 0.001, repeats: false) { [self] _ in
            BindTrace.withScope(scope) {
                let label = elapsedLabel
                if dropsSubscriptions {
                    clock.ticks.bind { [weak label] in label?.text = "\($0) s" }  // expect: leaked-subscription
                } else {
                    clock.ticks.bind { [weak label] in label?.text = "\($0) s" }.add(to: bag)
                }
                clock.ticks.update(withValue: 1)
            }
            lock.withLock { pending -= 1 }
        }
        runLoop.add(timer, forMode: .default)
        runLoop.perform { [self] in
            BindTrace.withScope(scope) {
                let label = lapLabel
                if dropsSubscriptions {
                    clock.laps.bind { [weak label] in label?.text = "lap \($0)" }  // expect: leaked-subscription
                } else {
                    clock.laps.bind { [weak label] in label?.text = "lap \($0)" }.add(to: bag)
                }
            }
            lock.withLock { pending -= 1 }
        }
    }

    func close() { bag.unsubscribe() }
}

enum StopwatchApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let clock = Clock()
        AppLifetime.shared.keep(clock)
        let runLoop = RunLoop.current
        let screen = BindTrace.scope("stopwatch screen") {
            let screen = StopwatchScreen(clock: clock)
            screen.start(on: runLoop, dropsSubscriptions: buggy)
            return screen
        }
        // The run loop turns after the screen's code returned: the timer fires, the block runs.
        while !screen.isIdle { _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
        clock.laps.update(withValue: 1)
        screen.close()
        clock.ticks.update(withValue: 2)
    }
}
