import Testing

@testable import BindAnalysis

@Suite("BindingGroupTable: Binder groups by key")
struct BindingGroupTableTests {
    @Test("inserts, lookups and removals in any order agree with a Dictionary, as it grows and shrinks")
    func matchesADictionary() {
        var generator = SplitMix(seed: 15)
        var table = BindingGroupTable()
        var reference: [BindingGroup.Key: BindingGroup] = [:]
        // Few types, files and lines, many identities: keys that share most of their fields.
        func randomKey() -> BindingGroup.Key {
            BindingGroup.Key(
                target: TargetKey(type: UInt32(generator.next() % 3), identity: generator.next() % 500),
                site: SiteKey(file: UInt32(generator.next() % 2), line: UInt(generator.next() % 4)))
        }
        for step in 0..<20_000 {
            let key = randomKey()
            // Grow to a few hundred groups, then mostly remove (the table shrinks again).
            let removing = step < 10_000 ? generator.next() % 3 == 0 : generator.next() % 5 != 0
            if removing {
                #expect(table.removeValue(forKey: key) === reference.removeValue(forKey: key), "step \(step)")
            } else if table[key] == nil {
                let group = BindingGroup(key: key)
                table.insert(group, for: key)
                reference[key] = group
            }
            #expect(table.count == reference.count, "step \(step)")
            let probe = randomKey()
            #expect(table[probe] === reference[probe], "step \(step)")
        }
        for (key, group) in reference { #expect(table[key] === group) }
    }
}
