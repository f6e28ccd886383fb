import Bind
import Foundation

// An upload screen: an app-wide upload service, and a screen whose work runs on a thread it
// starts, in a detached task, and after a callback API (resumed on the callback's own thread)
// completes a continuation. The thread and the detached task carry the screen's scope; code after
// the continuation's `await` is still the screen's task, in its scope by itself.
// Planted bugs: each of the three binds to the service and drops the Subscription.

final class UploadService: Sendable {
    let progress = Output<Double>(value: 0).labeled("upload progress")
    let queued = Output<Int>(value: 0).labeled("queued uploads")
    let failures = Output<Int>(value: 0).labeled("upload failures")

    /// A callback API: calls `completion` later, on a thread of its own.
    func authorize(_ completion: @escaping @Sendable (Bool) -> Void) {
        Thread.detachNewThread { completion(true) }
    }
}

final class UploadScreen: @unchecked Sendable {
    let service: UploadService
    let progressLabel = Label()
    let queueLabel = Label()
    let failureLabel = Label()
    let bag = SubscriptionContainer()

    init(service: UploadService) { self.service = service }

    /// On a thread of its own: watches the progress.
    func watchProgress(dropsSubscription: Bool) {
        let label = progressLabel
        if dropsSubscription {
            service.progress.bind { [weak label] in label?.text = "\(Int($0 * 100))%" }  // expect: leaked-subscription
        } else {
            service.progress.bind { [weak label] in label?.text = "\(Int($0 * 100))%" }.add(to: bag)
        }
    }

    /// In a detached task: watches the queue.
    func watchQueue(dropsSubscription: Bool) {
        let label = queueLabel
        if dropsSubscription {
            service.queued.bind { [weak label] in label?.text = "\($0) queued" }  // expect: leaked-subscription
        } else {
            service.queued.bind { [weak label] in label?.text = "\($0) queued" }.add(to: bag)
        }
    }

    /// After authorization: watches failures.
    func authorizeThenWatchFailures(dropsSubscription: Bool) async {
        let granted = await withCheckedContinuation { continuation in
            service.authorize { continuation.resume(returning: $0) }
        }
        guard granted else { return }
        let label = failureLabel
        if dropsSubscription {
            service.failures.bind { [weak label] in label?.text = "\($0) failed" }  // expect: leaked-subscription
        } else {
            service.failures.bind { [weak label] in label?.text = "\($0) failed" }.add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

enum UploadApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) async {
        let service = UploadService()
        AppLifetime.shared.keep(service)
        let threadDone = DispatchSemaphore(value: 0)
        var detached: Task<Void, Never>?
        let screen = await BindTrace.scope("upload screen") {
            let screen = UploadScreen(service: service)
            let scope = BindTrace.currentScopeToken
            Thread.detachNewThread(
                BindTrace.inheritingScope {
                    screen.watchProgress(dropsSubscription: buggy)
                    threadDone.signal()
                })
            detached = Task.detached { BindTrace.withScope(scope) { screen.watchQueue(dropsSubscription: buggy) } }
            await screen.authorizeThenWatchFailures(dropsSubscription: buggy)
            return screen
        }
        await detached?.value
        waitUntilSignalled(threadDone)
        service.progress.update(withValue: 0.5)
        service.queued.update(withValue: 2)
        screen.close()
        service.failures.update(withValue: 1)
    }
}

/// Blocks until `semaphore` is signalled (outside async code, where blocking is allowed).
private func waitUntilSignalled(_ semaphore: DispatchSemaphore) { semaphore.wait() }
