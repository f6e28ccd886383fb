import Foundation
import Testing

/// `leakyTrace` plus a second leak at `App/Screen.swift:22`, with ids and event numbers shifted:
/// the same first bug, seen in a later run that also has a new one.
private func laterRun() -> [UInt8] {
    var trace = TraceFileWriter()
    trace.thread(1)
    trace.output(9, line: 30)
    trace.update(9)
    trace.output(4, line: 3, label: "title")
    trace.beginScope(5, name: "cell", line: 10)
    trace.bind(6, to: 4, line: 12, scope: 5)
    trace.bind(7, to: 4, line: 22, scope: 5)
    trace.endScope(5)
    trace.end()
    return trace.bytes
}

@Suite("baselines: adopting the gate on an app with known findings")
struct BaselineTests {
    @Test("--write-baseline records this run's findings; with --baseline only a new finding fails the run")
    func onlyNewFindingsFail() throws {
        let first = try TemporaryTrace(leakyTrace())
        let later = try TemporaryTrace(laterRun())
        let out = try TemporaryDirectory()
        defer { first.cleanUp(); later.cleanUp(); out.cleanUp() }
        let baseline = out.file("bind-baseline.json")

        let write = try Tool.run("check", first.path, "--write-baseline", baseline)
        #expect(write.status == 0, "writing a baseline accepts the run's findings: \(write.standardError)")
        #expect(try Tool.run("check", first.path, "--baseline", baseline).status == 0)

        let check = try Tool.run("check", later.path, "--baseline", baseline)
        #expect(check.status == 1)
        let warnings = check.standardOutput.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 1, "\(check.standardOutput)")
        #expect(warnings.first?.hasPrefix("App/Screen.swift:22: warning: leaked-subscription") == true)
        #expect(check.standardOutput.contains("1 more in the baseline"))
    }

    @Test("report with a baseline: SARIF marks old findings unchanged and new ones new, JUnit skips the old ones")
    func reportMarksBaselined() throws {
        let first = try TemporaryTrace(leakyTrace())
        let later = try TemporaryTrace(laterRun())
        let out = try TemporaryDirectory()
        defer { first.cleanUp(); later.cleanUp(); out.cleanUp() }
        let baseline = out.file("baseline.json")
        #expect(try Tool.run("report", first.path, "-o", out.file("r1"), "--write-baseline", baseline).status == 0)

        let report = try Tool.run("report", later.path, "-o", out.file("r2"), "--baseline", baseline)

        #expect(report.status == 1, "\(report.standardError)")
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: out.contents("r2/findings.sarif")) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let states = results.map { $0["baselineState"] as? String }
        #expect(states.sorted { ($0 ?? "") < ($1 ?? "") } == ["new", "unchanged"])
        let junit = String(decoding: try out.contents("r2/junit.xml"), as: UTF8.self)
        #expect(junit.contains("skipped=\"1\""))
        #expect(junit.components(separatedBy: "<skipped ").count == 2)
        #expect(junit.components(separatedBy: "<failure ").count == 2)
        let html = String(decoding: try out.contents("r2/index.html"), as: UTF8.self)
        #expect(html.components(separatedBy: "In the baseline: a known finding").count == 2)
    }

    @Test("SARIF fingerprints stay the same across runs with other ids, event numbers and unrelated findings")
    func stableFingerprints() throws {
        let first = try TemporaryTrace(leakyTrace())
        let later = try TemporaryTrace(laterRun())
        let out = try TemporaryDirectory()
        defer { first.cleanUp(); later.cleanUp(); out.cleanUp() }
        #expect(try Tool.run("report", first.path, "-o", out.file("a")).status == 1)
        #expect(try Tool.run("report", later.path, "-o", out.file("b")).status == 1)

        func fingerprints(_ directory: String) throws -> [String: String] {
            let sarif =
                try JSONSerialization.jsonObject(with: out.contents(directory + "/findings.sarif")) as? [String: Any]
            let results = ((sarif?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
            var result: [String: String] = [:]
            for entry in results {
                let location = ((entry["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
                let line = (location?["region"] as? [String: Any])?["startLine"] as? Int ?? 0
                result["\(line)"] = (entry["partialFingerprints"] as? [String: String])?.values.first
            }
            return result
        }
        let a = try fingerprints("a")
        let b = try fingerprints("b")
        #expect(a["12"] != nil)
        #expect(a["12"] == b["12"], "the same leak, other ids and events")
        #expect(b["22"] != nil && b["22"] != b["12"])
    }
}
