import Testing

@testable import BindTraceModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a test thread runs.
private final class ThreadBody: @unchecked Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

private func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
    return nil
}

/// Runs `body` on a new thread; returns the thread to join.
private func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(&thread, nil, { runThreadBody($0) }, context)
    precondition(status == 0, "a test thread starts")
    #if canImport(Darwin)
    return thread!
    #else
    return thread
    #endif
}

/// Collects what consumers took, under a lock.
private final class Tally: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var values: [Int] = []

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    func add(_ taken: [Int]) {
        pthread_mutex_lock(&mutex)
        values += taken
        pthread_mutex_unlock(&mutex)
    }

    var sorted: [Int] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return values.sorted()
    }
}

@Suite("The bounded queue between threads")
struct BoundedQueueTests {
    @Test("in one thread it is first in, first out; once closed it drains, then gives nil and refuses more")
    func order() {
        let queue = BoundedQueue<Int>(capacity: 3)
        for value in 1...3 { #expect(queue.push(value)) }
        #expect(queue.pop() == 1)
        #expect(queue.push(4))
        queue.close()
        #expect(!queue.push(5))
        #expect([queue.pop(), queue.pop(), queue.pop(), queue.pop()] == [2, 3, 4, nil])
    }

    @Test("many producers and consumers through a tiny queue: every value arrives exactly once (stress)")
    func stress() {
        let queue = BoundedQueue<Int>(capacity: 2)
        let tally = Tally()
        let producers = 3
        let perProducer = 20_000
        var threads: [pthread_t] = []
        for producer in 0..<producers {
            threads.append(
                spawn {
                    for value in 0..<perProducer { queue.push(producer * perProducer + value) }
                })
        }
        var consumers: [pthread_t] = []
        for _ in 0..<3 {
            consumers.append(
                spawn {
                    var taken: [Int] = []
                    while let value = queue.pop() { taken.append(value) }
                    tally.add(taken)
                })
        }
        for thread in threads { pthread_join(thread, nil) }
        // Every value is queued: closing now lets the consumers drain the rest and stop.
        queue.close()
        for thread in consumers { pthread_join(thread, nil) }
        #expect(tally.sorted == Array(0..<(producers * perProducer)))
    }

    @Test(
        "closing wakes a producer waiting for room and a consumer waiting for a value (stress)",
        .timeLimit(.minutes(1)))
    func closeWakesWaiters() {
        for round in 0..<200 {
            let full = BoundedQueue<Int>(capacity: 1)
            full.push(0)
            let empty = BoundedQueue<Int>(capacity: 1)
            let results = Results()
            let producer = spawn { results.set(pushed: full.push(1)) }
            let consumer = spawn { results.set(popped: empty.pop()) }
            full.close()
            empty.close()
            // A waiter that closing did not wake would block the joins for good: look first, with a deadline.
            guard results.waitForBoth(seconds: 10) else {
                Issue.record("round \(round): a waiter was still blocked 10 s after close()")
                return
            }
            pthread_join(producer, nil)
            pthread_join(consumer, nil)
            #expect(results.pushed == false, "round \(round): a push into a closed, full queue is refused")
            #expect(results.popped == .some(nil), "round \(round): a pop from a closed, empty queue gives nil")
            #expect(full.pop() == 0 && full.pop() == nil, "round \(round): the closed queue drains what it held")
        }
    }
}

/// What the two waiters of `closeWakesWaiters` got back, and a wait for both with a deadline.
private final class Results: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private(set) var pushed: Bool?
    private(set) var popped: Int??

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }
    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    func set(pushed value: Bool) { update { pushed = value } }
    func set(popped value: Int?) { update { popped = .some(value) } }

    private func update(_ body: () -> Void) {
        pthread_mutex_lock(&mutex)
        body()
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Whether both waiters returned within `seconds`.
    func waitForBoth(seconds: Int) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += seconds
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while pushed == nil || popped == nil {
            if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT {
                return pushed != nil && popped != nil
            }
        }
        return true
    }
}
