#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Decodes a trace on a second thread, a few batches ahead of the thread that consumes it (the
/// replay), so decoding and replaying run at the same time on two cores.
///
/// The batches are exactly those ``TraceReader/read(into:maximumEvents:)`` gives on one thread,
/// failure included. A fixed set of batches circulates: the decoding thread fills an empty one and
/// queues it; the consumer takes it, uses it and gives it back with ``recycle(_:)``; so memory stays
/// a few batches, however long the trace.
///
/// ```swift
/// let readAhead = TraceReadAhead(reader)
/// var strings = DefinedStrings()
/// while let batch = readAhead.next() {
///     strings.take(batch)
///     for index in 0..<batch.count { use(strings.event(in: batch, at: index)) }
///     if let failure = batch.failure { throw failure }
///     readAhead.recycle(batch)
/// }
/// ```
/// The reader belongs to the decoding thread until ``next()`` has returned the last batch (or this
/// object is gone): only then may its warnings and other state be read.
package final class TraceReadAhead {
    private let worker: Worker
    private var thread: pthread_t?
    private var done = false

    /// Starts decoding `reader` on a new thread, `batches` batches of `batchSize` events ahead at most.
    package init(_ reader: TraceReader, batches: Int = 4, batchSize: Int = EventBatch.defaultCapacity) {
        precondition(batches > 0 && batchSize > 0, "read-ahead needs at least one batch of one event")
        worker = Worker(reader: reader, batches: batches, batchSize: batchSize)
        for _ in 0..<batches { worker.empty.push(EventBatch()) }
        thread = Self.start(worker)
    }

    deinit {
        // Stop a decoder still running (a consumer that stopped early), then wait for it.
        worker.empty.close()
        join()
    }

    /// The next batch, or `nil` after the last one (``EventBatch/isLast``).
    package func next() -> EventBatch? {
        guard !done else { return nil }
        let batch: EventBatch?
        if thread == nil {
            // No thread could be started: decode here instead.
            batch = worker.empty.pop().map { empty in worker.fill(empty) }
        } else {
            batch = worker.filled.pop()
        }
        if batch?.isLast != false {
            done = true
            join()
        }
        return batch
    }

    /// Gives a batch back to be filled again.
    package func recycle(_ batch: consuming EventBatch) {
        worker.empty.push(batch)
    }

    private func join() {
        guard let thread else { return }
        self.thread = nil
        pthread_join(thread, nil)
    }

    /// The new thread, or `nil` when none could be started.
    private static func start(_ worker: Worker) -> pthread_t? {
        let context = Unmanaged.passRetained(worker).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        guard pthread_create(&thread, nil, { context in runWorker(context) }, context) == 0 else {
            Unmanaged<Worker>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// What the decoding thread owns: the reader, and the queues of empty and filled batches.
    fileprivate final class Worker: @unchecked Sendable {
        // @unchecked: `reader` is used by one thread at a time (the decoding thread until it queues the
        // last batch; the queues order that hand-over); the queues are thread-safe.
        let reader: TraceReader
        let batchSize: Int
        let empty: BoundedQueue<EventBatch>
        /// Never blocks the decoder: it holds every batch there is.
        let filled: BoundedQueue<EventBatch>

        init(reader: TraceReader, batches: Int, batchSize: Int) {
            self.reader = reader
            self.batchSize = batchSize
            empty = BoundedQueue(capacity: batches)
            filled = BoundedQueue(capacity: batches)
        }

        func fill(_ batch: consuming EventBatch) -> EventBatch {
            reader.read(into: &batch, maximumEvents: batchSize)
            return batch
        }

        /// The decoding thread: fills batches until the trace ends or the consumer goes away.
        func run() {
            while let batch = empty.pop() {
                let filledBatch = fill(batch)
                let isLast = filledBatch.isLast
                filled.push(filledBatch)
                if isLast { break }
            }
            filled.close()
        }
    }
}

/// The decoding thread's entry point.
private func runWorker(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<TraceReadAhead.Worker>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
