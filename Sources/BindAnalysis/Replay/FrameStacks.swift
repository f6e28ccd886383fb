/// The open frames of every thread, for the replay's hot path (a push and a pop per update).
///
/// Frames are plain values (no references are retained), so each thread's stack is a raw growable
/// buffer: no copy-on-write uniqueness checks, no retain or release per push or pop.
final class FrameStacks {
    private struct Stack {
        var base: UnsafeMutablePointer<Frame>
        var count: Int
        var capacity: Int
    }

    /// Indexed by thread number; `threadCount` of them are initialised.
    private var stacks: UnsafeMutablePointer<Stack>
    private var threadCapacity: Int
    private(set) var threadCount = 0

    init() {
        threadCapacity = 4
        stacks = .allocate(capacity: threadCapacity)
    }

    deinit {
        for thread in 0..<threadCount { stacks[thread].base.deallocate() }
        stacks.deallocate()
    }

    /// Makes the stack of `thread` exist.
    @inline(__always)
    func prepare(_ thread: Int) {
        if thread >= threadCount { addThreads(through: thread) }
    }

    @inline(never)
    private func addThreads(through thread: Int) {
        if thread >= threadCapacity {
            let capacity = max(threadCapacity * 2, thread + 1)
            let grown = UnsafeMutablePointer<Stack>.allocate(capacity: capacity)
            grown.moveInitialize(from: stacks, count: threadCount)
            stacks.deallocate()
            stacks = grown
            threadCapacity = capacity
        }
        while threadCount <= thread {
            (stacks + threadCount).initialize(to: Stack(base: .allocate(capacity: 16), count: 0, capacity: 16))
            threadCount += 1
        }
    }

    /// How many frames are open on `thread` (prepared).
    @inline(__always)
    func count(_ thread: Int) -> Int { stacks[thread].count }

    /// The innermost open frame of `thread` (prepared).
    @inline(__always)
    func top(_ thread: Int) -> Frame? {
        let stack = stacks[thread]
        return stack.count > 0 ? stack.base[stack.count - 1] : nil
    }

    @inline(__always)
    func push(_ frame: Frame, thread: Int) {
        if stacks[thread].count == stacks[thread].capacity { grow(thread) }
        let count = stacks[thread].count
        (stacks[thread].base + count).initialize(to: frame)
        stacks[thread].count = count + 1
    }

    /// Removes and returns the innermost frame of `thread`, which has one.
    @inline(__always)
    func pop(_ thread: Int) -> Frame {
        let count = stacks[thread].count - 1
        stacks[thread].count = count
        return stacks[thread].base[count]
    }

    @inline(never)
    private func grow(_ thread: Int) {
        let stack = stacks[thread]
        let capacity = stack.capacity * 2
        let grown = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
        grown.moveInitialize(from: stack.base, count: stack.count)
        stack.base.deallocate()
        stacks[thread].base = grown
        stacks[thread].capacity = capacity
    }

    /// The open frames of `thread`, outermost first, without copying them: valid until the next
    /// push or pop (empty for a thread never seen).
    func view(_ thread: Int) -> UnsafeBufferPointer<Frame> {
        guard thread < threadCount else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: stacks[thread].base, count: stacks[thread].count)
    }

    /// The open frames of `thread`, outermost first (empty for a thread never seen).
    func frames(_ thread: Int) -> [Frame] {
        guard thread < threadCount else { return [] }
        return Array(UnsafeBufferPointer(start: stacks[thread].base, count: stacks[thread].count))
    }
}
