import Testing

@_spi(Harness) @testable import BindAnalysis

@Suite("TraceSummary: activity by site")
struct SiteActivityTests {
    @Test("updates of released and live Outputs add up by creation site, however many sites")
    func addsUpBySite() {
        var trace = TraceBuilder()
        var id: UInt64 = 0
        // 40 sites (the table grows twice); at site n, three Outputs with n updates each, two released.
        for line in UInt(1)...40 {
            for copy in 0..<3 {
                id += 1
                trace.output(id, line: line)
                for _ in 0..<line { trace.update(id) }
                if copy < 2 { trace.release(id) }
            }
        }
        let replay = Replay()
        for event in trace.events { replay.apply(event) }

        let top = replay.summary(isComplete: true, findings: []).topSites
        #expect(top.map(\.site.line) == Array((31...40).reversed()))
        #expect(top.map(\.updates) == (31...40).reversed().map { 3 * UInt64($0) })
        #expect(top.allSatisfy { $0.outputs == 3 })
    }
}
