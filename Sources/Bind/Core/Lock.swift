#if canImport(Darwin)
import Darwin
#else
import CBindCore
#endif

/// The cheapest lock for critical sections of a few loads and stores, allocated once per owner.
///
/// On Apple platforms `os_unfair_lock`. Elsewhere `bind_core_lock` (CBindCore): one atomic exchange to
/// take, a plain release store to give back; while it is taken a waiter spins briefly, then parks on
/// a futex that the unlock wakes, so threads that outnumber the cores do not nap while the lock is
/// free. A glibc mutex costs two atomic instructions per round trip, which made it most of an
/// update's cost; `make bench` measures both the round trip and the lock under contention
/// (BENCHMARKS.md, "The lock").
///
/// A value type holding a pointer so it can live inline in `Output` without an extra object;
/// the owner calls `deallocate()` from its `deinit`.
@usableFromInline
struct Lock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = bind_core_lock
    #endif

    @usableFromInline let primitive: UnsafeMutablePointer<Primitive>

    @inlinable
    init() {
        #if canImport(Darwin)
        primitive = .allocate(capacity: 1)
        primitive.initialize(to: os_unfair_lock())
        #else
        // A cache line of its own: packed among other small allocations, the lock word made an
        // update of ten subscribers take 26 or 43 ns depending on what it happened to sit beside.
        primitive = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
            .bindMemory(to: bind_core_lock.self, capacity: 1)
        primitive.initialize(to: bind_core_lock())
        #endif
    }

    @inlinable
    func deallocate() {
        primitive.deinitialize(count: 1)
        #if canImport(Darwin)
        primitive.deallocate()
        #else
        UnsafeMutableRawPointer(primitive).deallocate()
        #endif
    }

    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        bind_core_lock_lock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        bind_core_lock_unlock(primitive)
        #endif
    }

    @inlinable @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
