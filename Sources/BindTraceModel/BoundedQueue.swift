#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A first-in first-out queue between threads that holds at most `capacity` elements: ``push(_:)``
/// waits while it is full, ``pop()`` while it is empty. ``close()`` wakes every waiter for good.
///
/// One mutex and two condition variables, nothing cleverer: it moves whole batches of events, a
/// few hundred times a second, so its cost does not matter and its correctness must be obvious.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every stored property below is read and written with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let notEmpty = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let notFull = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var elements: [Element?]
    /// Where the oldest element is in `elements` (a ring).
    private var head = 0
    private var count = 0
    private var closed = false

    init(capacity: Int) {
        precondition(capacity > 0, "a bounded queue holds at least one element")
        elements = Array(repeating: nil, count: capacity)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(notEmpty, nil)
        pthread_cond_init(notFull, nil)
    }

    deinit {
        pthread_cond_destroy(notFull)
        pthread_cond_destroy(notEmpty)
        pthread_mutex_destroy(mutex)
        notFull.deallocate()
        notEmpty.deallocate()
        mutex.deallocate()
    }

    /// Adds `element` at the end, waiting for room; returns false (and drops it) once the queue is closed.
    @discardableResult
    func push(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == elements.count && !closed { pthread_cond_wait(notFull, mutex) }
        guard !closed else { return false }
        elements[(head + count) % elements.count] = element
        count += 1
        pthread_cond_signal(notEmpty)
        return true
    }

    /// Removes the oldest element, waiting for one; `nil` once the queue is closed and empty.
    func pop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0 && !closed { pthread_cond_wait(notEmpty, mutex) }
        guard count > 0 else { return nil }
        let element = elements[head].take()
        head = (head + 1) % elements.count
        count -= 1
        pthread_cond_signal(notFull)
        return element
    }

    /// Ends the queue: ``push(_:)`` refuses from now on, ``pop()`` drains what is left, then gives `nil`.
    func close() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        closed = true
        pthread_cond_broadcast(notEmpty)
        pthread_cond_broadcast(notFull)
    }
}
