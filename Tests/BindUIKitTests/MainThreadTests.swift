import Bind
import Foundation
import Testing
import UIKitStandIn

/// Marks the main queue, so a test can tell whether code runs on it (the main actor runs there).
let mainQueueMarker: DispatchSpecificKey<Void> = {
    let marker = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: marker, value: ())
    return marker
}()

/// Whether the caller runs on the main queue, the main actor's executor.
var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueMarker) != nil }

/// A label that remembers every text it was given, and whether one came off the main queue.
@MainActor
final class HistoryLabel: UILabel {
    var history: [String] = []
    var setOffMainQueue = false

    override var text: String? {
        didSet {
            history.append(text ?? "nil")
            if !isOnMainQueue { setOffMainQueue = true }
        }
    }
}

/// Waits until the main queue has run everything queued on it before this call.
@MainActor
func drainMainQueue() async {
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

@MainActor
@Suite("UIKit binders and the main thread")
struct MainThreadTests {
    @Test("on the main thread or queue a UIKit binder sets the view at once, as the original framework did")
    func mainThreadIsSynchronous() {
        #expect(isOnMainQueue)
        let label = HistoryLabel()
        let text = Output<String>()
        text.bind(to: label.binding.text)

        text.update(withValue: "one")
        #expect(label.history == ["one"])
    }

    @Test("from another thread the values reach the view on the main thread, in the order they were sent")
    func otherThreadsHopToMain() async {
        let label = HistoryLabel()
        let text = Output<String>()
        text.bind(to: label.binding.text)

        let values = (1...200).map(String.init)
        await Task.detached {
            #expect(!isOnMainQueue)
            for value in values { text.update(withValue: value) }
        }.value
        await drainMainQueue()

        #expect(label.history == values)
        #expect(!label.setOffMainQueue)
    }

    @Test("values sent from many threads at once all reach the view on the main queue, each thread's in order")
    func manyThreadsAtOnce() async {
        let label = HistoryLabel()
        let text = Output<String>()
        text.bind(to: label.binding.text)

        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<250 { text.update(withValue: "\(thread)-\(index)") }
                }
            }
        }
        await drainMainQueue()

        #expect(label.history.count == 1000)
        #expect(!label.setOffMainQueue)
        for thread in 0..<4 {
            let sent = label.history.filter { $0.hasPrefix("\(thread)-") }
            #expect(sent == (0..<250).map { "\(thread)-\($0)" })
        }
    }
}
