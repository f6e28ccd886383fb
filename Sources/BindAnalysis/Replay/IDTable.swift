/// The live nodes of one kind (Outputs, subscriptions, scopes), by trace id.
///
/// A hash table made for the replay's hot path, where `Dictionary` spent a fifth of the time in
/// SipHash and reference counting: ids are process-wide counters handed out in order, so a
/// multiplicative (Fibonacci) hash spreads them evenly for a fraction of the cost, and the slots
/// are raw memory holding one retain per node, so ``reference(_:)`` is a lookup with no retain.
/// Open addressing with linear probing and backward-shift deletion (no tombstones); the table
/// shrinks again when most nodes are gone, so memory follows what is alive, not the ids ever used.
/// Iteration order is slot order: callers that show it sort first.
final class IDTable<Node: AnyObject> {
    private struct Slot {
        var id: UInt64
        /// `nil`: an empty slot. Holds one retain of the node.
        var node: Unmanaged<Node>?
    }

    private var slots: UnsafeMutablePointer<Slot>
    private var capacity: Int
    /// 64 − log2(capacity): the hash keeps the top bits of the product.
    private var shift: UInt64
    private(set) var count = 0

    private static var minimumCapacity: Int { 16 }

    init() {
        capacity = Self.minimumCapacity
        slots = Self.allocateSlots(capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
    }

    deinit {
        for index in 0..<capacity { slots[index].node?.release() }
        slots.deallocate()
    }

    private static func allocateSlots(_ capacity: Int) -> UnsafeMutablePointer<Slot> {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(id: 0, node: nil), count: capacity)
        return slots
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ id: UInt64) -> Int {
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The node of `id`, unretained (valid while it stays in the table), or `nil`.
    @inline(__always)
    func reference(_ id: UInt64) -> Unmanaged<Node>? {
        let mask = capacity &- 1
        var index = home(id)
        while let node = slots[index].node {
            if slots[index].id == id { return node }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// The node of `id`, or `nil`; assigning `nil` removes it.
    subscript(id: UInt64) -> Node? {
        get { reference(id)?.takeUnretainedValue() }
        set {
            if let newValue { insert(newValue, for: id) } else { removeValue(forKey: id) }
        }
    }

    private func insert(_ node: Node, for id: UInt64) {
        insert(retained: .passRetained(node), for: id)
    }

    /// Stores `node` for `id`, taking over the retain `node` holds (the node it replaces is released).
    @inline(__always)
    func insert(retained node: Unmanaged<Node>, for id: UInt64) {
        let mask = capacity &- 1
        var index = home(id)
        while let existing = slots[index].node {
            if slots[index].id == id {
                slots[index].node = node
                existing.release()
                return
            }
            index = (index &+ 1) & mask
        }
        slots[index] = Slot(id: id, node: node)
        count += 1
        // At most half full: probes stay short.
        if count * 2 > capacity { resize(to: capacity * 2) }
    }

    /// Removes the node of `id` and returns it.
    @discardableResult
    func removeValue(forKey id: UInt64) -> Node? {
        removeReference(forKey: id)?.takeRetainedValue()
    }

    /// Removes the node of `id` and returns it with the retain the table held, which the caller
    /// takes over.
    @inline(__always)
    func removeReference(forKey id: UInt64) -> Unmanaged<Node>? {
        let mask = capacity &- 1
        var index = home(id)
        while let node = slots[index].node {
            if slots[index].id == id {
                deleteSlot(index, mask: mask)
                count -= 1
                if capacity > Self.minimumCapacity && count * 8 < capacity { resize(to: capacity / 2) }
                return node
            }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Backward-shift deletion: moves later members of the probe run into the hole, so lookups
    /// never need tombstones.
    private func deleteSlot(_ index: Int, mask: Int) {
        var hole = index
        var next = (hole &+ 1) & mask
        while slots[next].node != nil {
            let wanted = home(slots[next].id)
            // `next` may move back into the hole when the hole lies on its probe path.
            if (hole &- wanted) & mask < (next &- wanted) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        slots[hole].node = nil
    }

    private func resize(to newCapacity: Int) {
        let old = slots
        let oldCapacity = capacity
        slots = Self.allocateSlots(newCapacity)
        capacity = newCapacity
        shift = UInt64(64 - newCapacity.trailingZeroBitCount)
        let mask = newCapacity - 1
        for oldIndex in 0..<oldCapacity where old[oldIndex].node != nil {
            var index = home(old[oldIndex].id)
            while slots[index].node != nil { index = (index &+ 1) & mask }
            slots[index] = old[oldIndex]
        }
        old.deallocate()
    }

    /// Every node, in slot order.
    var values: [Node] {
        (0..<capacity).compactMap { slots[$0].node?.takeUnretainedValue() }
    }

    /// Every (id, node) pair, in slot order.
    var entries: [(id: UInt64, node: Node)] {
        (0..<capacity).compactMap { index in slots[index].node.map { (slots[index].id, $0.takeUnretainedValue()) } }
    }
}
