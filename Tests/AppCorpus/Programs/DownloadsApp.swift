import Bind
import Foundation

// A downloads screen: an app-wide transfer monitor, and a screen that queues its transfers on an
// OperationQueue paused behind sign-in — a block that shows the number of transfers, an Operation
// subclass per file — and returns. The operations run after the screen's own code is over, each
// carrying the screen's scope (a token taken where the work was queued).
// Planted bugs: both kinds of operation bind to the monitor and drop the Subscription.

final class TransferMonitor: Sendable {
    let rate = Output<Int>(value: 0).labeled("transfer rate")
    let active = Output<Int>(value: 0).labeled("active transfers")
}

final class DownloadsScreen: @unchecked Sendable {
    let monitor: TransferMonitor
    let rateLabel = Label()
    let countLabel = Label()
    let bag = SubscriptionContainer()

    init(monitor: TransferMonitor) { self.monitor = monitor }

    func queueTransfers(on queue: OperationQueue, files: Int, dropsSubscriptions: Bool) {
        queue.addOperation(
            BindTrace.inheritingScope { [self] in
                if dropsSubscriptions {
                    monitor.active.bind { [weak self] in self?.show(active: $0) }  // expect: leaked-subscription
                } else {
                    monitor.active.bind { [weak self] in self?.show(active: $0) }.add(to: bag)
                }
            })
        for _ in 0..<files {
            queue.addOperation(FileTransfer(screen: self, dropsSubscription: dropsSubscriptions))
        }
    }

    func show(active: Int) { countLabel.text = "\(active) active" }

    func close() { bag.unsubscribe() }
}

/// One file's transfer: it takes the scope it was made in, and runs its work in it.
final class FileTransfer: Operation, @unchecked Sendable {
    private let scope = BindTrace.currentScopeToken
    private let screen: DownloadsScreen
    private let dropsSubscription: Bool

    init(screen: DownloadsScreen, dropsSubscription: Bool) {
        self.screen = screen
        self.dropsSubscription = dropsSubscription
        super.init()
    }

    override func main() {
        BindTrace.withScope(scope) {
            let label = screen.rateLabel
            if dropsSubscription {
                screen.monitor.rate.bind { [weak label] in label?.text = "\($0) kB/s" }  // expect: leaked-subscription
            } else {
                screen.monitor.rate.bind { [weak label] in label?.text = "\($0) kB/s" }.add(to: screen.bag)
            }
            screen.monitor.active.update(withValue: (screen.monitor.active.value ?? 0) + 1)
        }
    }
}

enum DownloadsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let monitor = TransferMonitor()
        AppLifetime.shared.keep(monitor)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        queue.isSuspended = true
        let screen = BindTrace.scope("downloads screen") {
            let screen = DownloadsScreen(monitor: monitor)
            screen.queueTransfers(on: queue, files: 3, dropsSubscriptions: buggy)
            return screen
        }
        // Signed in: the queued transfers run now, after the screen's scope.
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        monitor.rate.update(withValue: 640)
        screen.close()
        monitor.rate.update(withValue: 720)
    }
}
