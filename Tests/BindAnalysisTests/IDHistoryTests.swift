import Testing

@testable import BindAnalysis

@Suite("IDHistory: the ids that are gone, as ranges")
struct IDHistoryTests {
    @Test("ids inserted in any order are the ones it contains, in as many ranges as they have runs")
    func matchesASet() {
        var generator = SplitMix(seed: 15)
        for round in 0..<200 {
            var history = IDHistory()
            var gone: Set<UInt64> = []
            // Mostly recent ids, as unbinds come, with some old ones and repeats.
            var newest: UInt64 = 0
            for _ in 0..<(50 + round) {
                newest += generator.next() % 3
                let id =
                    generator.next() % 4 == 0
                    ? generator.next() % (newest + 1) : newest - min(newest, generator.next() % 5)
                history.insert(id)
                gone.insert(id)
            }
            for id in 0...(newest + 2) {
                #expect(history.contains(id) == gone.contains(id), "round \(round), id \(id)")
            }
            let runs = gone.filter { $0 == 0 || !gone.contains($0 - 1) }.count
            #expect(history.rangeCount == runs, "round \(round)")
        }
    }
}
