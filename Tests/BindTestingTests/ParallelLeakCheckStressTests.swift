import Bind
import BindAnalysis
import BindTraceTestSupport
import Foundation
import Testing

@testable import BindTesting

/// Many leak checks at once, as Swift Testing runs checked tests in parallel: each must judge its
/// own body only.
@Suite("leak checks running in parallel", .enabled(if: BindTrace.isEnabled))
struct ParallelLeakCheckStressTests {
    /// A clean screen's work: a local view model, bindings to it and to the shared profile, all
    /// unbound or released before the body returns.
    static func cleanWork(_ index: Int) async {
        let title = Output<String>(value: "row \(index)")
        let label = NameLabel()
        let bag = SubscriptionContainer()
        title.map { $0.uppercased() }.bind(to: label.binding[\.text]).add(to: bag)
        sharedProfile.name.bind { [weak label] in label?.text = $0 }.add(to: bag)
        await Task.yield()
        title.update(withValue: "row \(index)!")
        bag.unsubscribe()
    }

    @Test("hundreds of checked bodies at once: every planted leak is found in its own check, no false finding")
    func parallelChecks() async throws {
        _ = sharedProfile
        // Every capture records every check that runs beside it, so the work grows as the square of
        // the checks in flight: 40 keep a sanitizer's run (5–20× slower per event) within minutes.
        let cases = Sanitizer.any ? 40 : 200
        let results = await withTaskGroup(of: (index: Int, sites: [String]).self) { group in
            for index in 0..<cases {
                group.addTask {
                    let planted = index % 10 == 0
                    let name = "stress case \(index)"
                    let run = await LeakCheck.run(name, fileID: #fileID, line: #line, isolation: nil) {
                        await Self.cleanWork(index)
                        if planted { bindAndForget(to: NameLabel()) }
                    }
                    let outcome = LeakCheck.outcome(of: run, accepting: [])
                    let sites =
                        outcome.findings.map { "\($0.kind.rawValue)@\($0.site?.line ?? 0)" }
                        + (outcome.readError.map { ["read error: \($0)"] } ?? [])
                    return (index, sites)
                }
            }
            var all: [(index: Int, sites: [String])] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == cases)
        let falseFindings = results.filter { $0.index % 10 != 0 && !$0.sites.isEmpty }
        let missed = results.filter { $0.index % 10 == 0 && $0.sites != ["leaked-subscription@\(plantedLeakLine)"] }
        #expect(falseFindings.isEmpty, "false findings: \(falseFindings.prefix(5))")
        #expect(missed.isEmpty, "planted leaks not found exactly: \(missed.prefix(5))")
    }
}
