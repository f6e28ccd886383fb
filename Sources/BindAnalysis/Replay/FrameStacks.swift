/// The open frames of every thread, for the replay's hot path (a push and a pop per update).
///
/// Frames are plain values (no references are retained), so each thread's stack is a raw growable
/// buffer: no copy-on-write uniqueness checks, no retain or release per push or pop.
///
/// Thread numbers come from the trace, which is untrusted: they are mapped to dense slots (a direct
/// table for the small numbers recorders hand out, a dictionary beyond), so a hostile number costs
/// one stack, never an array as long as the number.
final class FrameStacks {
    private struct Stack {
        var base: UnsafeMutablePointer<Frame>
        var count: Int
        var capacity: Int
    }

    /// Indexed by slot; `threads.count` of them are initialised.
    private var stacks: UnsafeMutablePointer<Stack>
    private var slotCapacity: Int
    /// The thread number of each slot, in the order threads were first seen.
    private(set) var threads: [UInt32] = []
    /// Slot + 1 of each thread number below `directThreads` (0: not seen yet).
    private var directSlots = [Int32](repeating: 0, count: FrameStacks.directThreads)
    private var otherSlots: [UInt32: Int] = [:]
    /// The last thread looked up, and its slot (−1: none yet): consecutive events share a thread.
    private var cachedThread: UInt32 = 0
    private var cachedSlot = -1

    private static var directThreads: Int { 256 }

    init() {
        slotCapacity = 4
        stacks = .allocate(capacity: slotCapacity)
    }

    deinit {
        for slot in threads.indices { stacks[slot].base.deallocate() }
        stacks.deallocate()
    }

    /// The slot of `thread`, which gets an empty stack when first seen.
    @inline(__always)
    private func slot(_ thread: UInt32) -> Int {
        if thread == cachedThread && cachedSlot >= 0 { return cachedSlot }
        return lookUp(thread)
    }

    @inline(never)
    private func lookUp(_ thread: UInt32) -> Int {
        let slot: Int
        if Int(thread) < Self.directThreads {
            if directSlots[Int(thread)] == 0 { directSlots[Int(thread)] = Int32(addStack(for: thread) + 1) }
            slot = Int(directSlots[Int(thread)]) - 1
        } else if let known = otherSlots[thread] {
            slot = known
        } else {
            slot = addStack(for: thread)
            otherSlots[thread] = slot
        }
        cachedThread = thread
        cachedSlot = slot
        return slot
    }

    private func addStack(for thread: UInt32) -> Int {
        let slot = threads.count
        if slot == slotCapacity {
            let capacity = slotCapacity * 2
            let grown = UnsafeMutablePointer<Stack>.allocate(capacity: capacity)
            grown.moveInitialize(from: stacks, count: slot)
            stacks.deallocate()
            stacks = grown
            slotCapacity = capacity
        }
        (stacks + slot).initialize(to: Stack(base: .allocate(capacity: 4), count: 0, capacity: 4))
        threads.append(thread)
        return slot
    }

    /// How many frames are open on `thread`.
    @inline(__always)
    func count(_ thread: UInt32) -> Int {
        let slot = slot(thread)  // first: it may move `stacks`
        return stacks[slot].count
    }

    @inline(__always)
    func push(_ frame: Frame, thread: UInt32) {
        let slot = slot(thread)
        if stacks[slot].count == stacks[slot].capacity { grow(slot) }
        let count = stacks[slot].count
        (stacks[slot].base + count).initialize(to: frame)
        stacks[slot].count = count + 1
    }

    @inline(never)
    private func grow(_ slot: Int) {
        let stack = stacks[slot]
        let capacity = stack.capacity * 2
        let grown = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
        grown.moveInitialize(from: stack.base, count: stack.count)
        stack.base.deallocate()
        stacks[slot].base = grown
        stacks[slot].capacity = capacity
    }

    /// Closes the open frames of `thread` above the frame of event `sequence` (every frame when that
    /// one is not open), innermost first, calling `body` with each; returns how many stay open. One
    /// lookup of the thread's stack for all of them. `body` must not push or pop frames.
    @inline(__always)
    func close(_ thread: UInt32, downTo sequence: UInt64, _ body: (Frame) -> Void) -> Int {
        let slot = slot(thread)
        let base = stacks[slot].base
        var count = stacks[slot].count
        while count > 0 && base[count &- 1].sequence != sequence {
            count &-= 1
            body(base[count])
        }
        stacks[slot].count = count
        return count
    }

    /// Closes every open frame of `thread`, innermost first, calling `body` with each: one lookup
    /// of the thread's stack for all of them. `body` must not push or pop frames.
    @inline(__always)
    func removeAll(_ thread: UInt32, _ body: (Frame) -> Void) {
        let slot = slot(thread)
        let stack = stacks[slot]
        var index = stack.count
        while index > 0 {
            index &-= 1
            body(stack.base[index])
        }
        stacks[slot].count = 0
    }

    /// The open frames of `thread`, outermost first, without copying them: valid until the next
    /// push or pop.
    func view(_ thread: UInt32) -> UnsafeBufferPointer<Frame> {
        let slot = slot(thread)
        return UnsafeBufferPointer(start: stacks[slot].base, count: stacks[slot].count)
    }

    /// The open frames of `thread`, outermost first.
    func frames(_ thread: UInt32) -> [Frame] { Array(view(thread)) }
}
