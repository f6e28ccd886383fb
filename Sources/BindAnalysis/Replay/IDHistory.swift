/// The ids that are gone (released Outputs, unbound subscriptions), as sorted disjoint ranges.
///
/// Ids are handed out in order and mostly die young, so neighbouring dead ids merge into one range:
/// memory follows the gaps (ids still alive, or never seen), not the number of ids ever used.
struct IDHistory {
    /// Sorted, disjoint, non-adjacent closed ranges.
    private var ranges: [ClosedRange<UInt64>] = []

    var rangeCount: Int { ranges.count }

    func contains(_ id: UInt64) -> Bool {
        // The common question: a new id, past every id gone so far.
        if let last = ranges.last, id > last.upperBound { return false }
        guard let index = indexOfLast(atMost: id) else { return false }
        return ranges[index].contains(id)
    }

    mutating func insert(_ id: UInt64) {
        // The common case: the newest id, at or just past the last range.
        if let last = ranges.last, id >= last.lowerBound {
            if id <= last.upperBound { return }
            if id == last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...id
                return
            }
            ranges.append(id...id)
            return
        }
        // Next most common: just before the last gap (an older subscription of the same work unbound
        // last); no search then.
        let before: Int?
        if ranges.count >= 2 && id >= ranges[ranges.count - 2].lowerBound {
            before = ranges.count - 2
        } else {
            before = indexOfLast(atMost: id)
        }
        if let before, ranges[before].contains(id) { return }
        let after = (before ?? -1) + 1
        let joinsBefore = before.map { ranges[$0].upperBound &+ 1 == id } ?? false
        let joinsAfter = after < ranges.count && id &+ 1 == ranges[after].lowerBound
        switch (joinsBefore, joinsAfter) {
        case (true, true):
            ranges[before!] = ranges[before!].lowerBound...ranges[after].upperBound
            ranges.remove(at: after)
        case (true, false):
            ranges[before!] = ranges[before!].lowerBound...id
        case (false, true):
            ranges[after] = id...ranges[after].upperBound
        case (false, false):
            ranges.insert(id...id, at: after)
        }
    }

    /// The index of the last range starting at or before `id`.
    private func indexOfLast(atMost id: UInt64) -> Int? {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound <= id { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
