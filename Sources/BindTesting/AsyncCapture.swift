import Bind
import Foundation

/// Runs an async test body inside `BindTrace.capture`, whose body is synchronous.
///
/// The capture's scope is a task-local set synchronously, so the async body must start as a task
/// created inside the capture (it inherits the scope and Swift Testing's own task-locals) while
/// the capture's thread waits for it. No thread of Swift's shared pool ever waits: the capture
/// runs on one dedicated thread and the body on another, through task executor preferences.
///
/// - Note: Interim. Once `BindTrace` offers an async `capture`, this becomes one call to it.
enum AsyncCapture {
    static func capture(_ name: String, _ body: @escaping @Sendable () async throws -> Void) async throws
        -> BindTrace.Recording?
    {
        guard BindTrace.isEnabled else {
            try await body()
            return nil
        }
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
            // No task executors: run the body unwatched; the caller reports that nothing was checked.
            try await body()
            return nil
        }
        let captureThread = ThreadExecutor(name: "bind-leak-check capture")
        let bodyThread = ThreadExecutor(name: "bind-leak-check body")
        defer {
            captureThread.stop()
            bodyThread.stop()
        }
        let task = Task(executorPreference: captureThread) { () throws -> BindTrace.Recording? in
            try BindTrace.capture(name) {
                let inner = Task(executorPreference: bodyThread) { try await body() }
                let finished = DispatchSemaphore(value: 0)
                let outcome = OutcomeBox()
                Task(executorPreference: bodyThread) {
                    do {
                        try await inner.value
                    } catch {
                        outcome.error = error
                    }
                    finished.signal()
                }
                finished.wait()  // A dedicated thread: nothing else needs it meanwhile.
                if let error = outcome.error { throw error }
            }
        }
        return try await task.value
    }
}

/// Holds the body's error across threads; written before the semaphore signals, read after.
private final class OutcomeBox: @unchecked Sendable {
    var error: (any Error)?
}

/// A task executor that runs its jobs on one thread of its own.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init(name: String) {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread finish once its queue is empty.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        // The thread keeps the executor alive until it is stopped and drained.
        let executor = self
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor.asUnownedTaskExecutor())
        }
    }
}
