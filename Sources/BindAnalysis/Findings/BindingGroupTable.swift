/// The Binder binding groups with members, by key: every Binder bind and unbind looks its group up.
///
/// Open addressing with linear probing and backward-shift deletion, as ``IDTable``; a key's four
/// numbers are mixed with multiplications instead of hashed with SipHash (a `Dictionary` spent
/// about 350 instructions a lookup here). Keys and groups sit in parallel arrays, so a probe
/// compares numbers and touches no group. The table shrinks again when most groups are gone.
struct BindingGroupTable {
    private var keys: [BindingGroup.Key]
    /// `nil`: an empty slot.
    private var groups: [BindingGroup?]
    /// 64 − log2(capacity): the hash keeps the top bits of the mix.
    private var shift: UInt64
    private(set) var count = 0

    private static var minimumCapacity: Int { 16 }
    private static var emptyKey: BindingGroup.Key {
        BindingGroup.Key(target: TargetKey(type: 0, identity: 0), site: SiteKey(file: 0, line: 0))
    }

    init() {
        keys = Array(repeating: Self.emptyKey, count: Self.minimumCapacity)
        groups = Array(repeating: nil, count: Self.minimumCapacity)
        shift = UInt64(64 - Self.minimumCapacity.trailingZeroBitCount)
    }

    @inline(__always)
    private func home(_ key: BindingGroup.Key) -> Int {
        var mixed = key.target.identity &* 0x9E37_79B9_7F4A_7C15
        mixed ^= (UInt64(key.target.type) << 32 | UInt64(key.site.file)) &* 0xC2B2_AE3D_27D4_EB4F
        mixed ^= UInt64(truncatingIfNeeded: key.site.line) &* 0x1656_67B1_9E37_79F9
        mixed = (mixed ^ (mixed &>> 29)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed &>> shift)
    }

    /// The group of `key`, or `nil`.
    subscript(key: BindingGroup.Key) -> BindingGroup? {
        let mask = groups.count &- 1
        var index = home(key)
        while groups[index] != nil {
            if keys[index] == key { return groups[index] }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Adds `group` for `key`, which has none.
    mutating func insert(_ group: BindingGroup, for key: BindingGroup.Key) {
        let mask = groups.count &- 1
        var index = home(key)
        while groups[index] != nil { index = (index &+ 1) & mask }
        keys[index] = key
        groups[index] = group
        count += 1
        // At most half full: probes stay short.
        if count * 2 > groups.count { resize(to: groups.count * 2) }
    }

    /// Removes the group of `key` and returns it.
    mutating func removeValue(forKey key: BindingGroup.Key) -> BindingGroup? {
        let mask = groups.count &- 1
        var index = home(key)
        while groups[index] != nil {
            if keys[index] == key {
                // Moved out, not copied: the table's reference becomes the caller's.
                let group = groups[index].take()
                deleteSlot(index, mask: mask)
                count -= 1
                if groups.count > Self.minimumCapacity && count * 8 < groups.count { resize(to: groups.count / 2) }
                return group
            }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Backward-shift deletion: moves later members of the probe run into the hole, so lookups
    /// never need tombstones.
    private mutating func deleteSlot(_ index: Int, mask: Int) {
        var hole = index
        var next = (hole &+ 1) & mask
        while groups[next] != nil {
            let wanted = home(keys[next])
            // `next` may move back into the hole when the hole lies on its probe path.
            if (hole &- wanted) & mask < (next &- wanted) & mask {
                keys[hole] = keys[next]
                groups[hole] = groups[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        groups[hole] = nil
    }

    private mutating func resize(to capacity: Int) {
        let oldKeys = keys
        let oldGroups = groups
        keys = Array(repeating: Self.emptyKey, count: capacity)
        groups = Array(repeating: nil, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        let mask = capacity - 1
        for (key, group) in zip(oldKeys, oldGroups) {
            guard let group else { continue }
            var index = home(key)
            while groups[index] != nil { index = (index &+ 1) & mask }
            keys[index] = key
            groups[index] = group
        }
    }
}
