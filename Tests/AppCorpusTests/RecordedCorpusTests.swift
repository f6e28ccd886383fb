import BindTraceTestSupport
import Foundation
import Testing

@testable import AppCorpus

/// The corpus as users run it: each program recorded to a file by the instrumented build
/// (`BIND_TRACE`), judged by the real `bind-trace check --format json`.
@Suite("the app-shaped corpus, recorded and judged by bind-trace check", .requiresTracing)
struct RecordedCorpusTests {
    @Test(
        "bind-trace check --format json reports each planted bug at its line, and nothing for clean twins",
        arguments: CorpusPrograms.all.map { ProgramCase($0) })
    func recordedAndChecked(_ program: ProgramCase) throws {
        let keptAlive = try Corpus.keptAlivePaths(in: program.type.sourcePath)
        for buggy in [true, false] {
            let (sites, recordsHandles, paths) = try checkedSites(of: program, buggy: buggy)
            let expected = try Corpus.expectations(
                in: program.type.sourcePath, recordsHandles: recordsHandles,
                recordsValues: program.type.recordsValuePreviews)
            #expect(sites == (buggy ? expected : []), "\(program.testDescription) \(buggy ? "buggy" : "clean")")
            #expect(paths == (buggy ? keptAlive : [:]), "kept alive by, \(buggy ? "buggy" : "clean")")
        }
    }

    /// Records `AppCorpus <program> buggy|clean` (with value previews when the program asks, in its
    /// own process) and returns `kind@File.swift:line` of what `check` found, whether the trace
    /// records `Subscription` handles (from `summary`), and the `keptAliveBy` path of each finding
    /// of this program's file that has a `// kept alive by:` comment, by line.
    private func checkedSites(of program: ProgramCase, buggy: Bool) throws -> (
        sites: [String], recordsHandles: Bool, keptAlive: [Int: String]
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("app.trace").path
        var environment = ["BIND_TRACE": trace]
        if program.type.recordsValuePreviews { environment["BIND_TRACE_VALUES"] = "1" }
        let app = try Products.run(
            "AppCorpus", [program.testDescription, buggy ? "buggy" : "clean"], environment: environment)
        try #require(app.status == 0, "AppCorpus ran: \(app.standardError)")
        let check = try Products.run("bind-trace", ["check", "--format", "json", trace])
        try #require(check.status <= 1, "check ran: \(check.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(
            (object["traceErrors"] as? [Any])?.isEmpty == true, "the trace is consistent: \(check.standardOutput)")
        let sites = findings.map { finding in
            let site = finding["site"] as? [String: Any]
            let file = ((site?["file"] as? String ?? "?") as NSString).lastPathComponent
            return "\(finding["kind"] as? String ?? "?")@\(file):\(site?["line"] as? Int ?? 0)"
        }.sorted()
        let commented = try Corpus.keptAlivePaths(in: program.type.sourcePath)
        var keptAlive: [Int: String] = [:]
        for finding in findings {
            guard let line = (finding["site"] as? [String: Any])?["line"] as? Int, commented[line] != nil,
                let path = finding["keptAliveBy"] as? String
            else { continue }
            keptAlive[line] = Corpus.withoutIDs(path)
        }
        let summary = try Products.run("bind-trace", ["summary", trace])
        let recordsHandles =
            summary.standardOutput.contains("handleReleased")
            || summary.standardOutput.contains("subscriptionContained")
        return (sites, recordsHandles, keptAlive)
    }
}

/// Runs the package's built products (`AppCorpus`, `bind-trace`), found next to the test bundle.
enum Products {
    typealias Run = ChildProcess.Run

    static func executable(_ name: String) throws -> URL {
        var candidates: [URL] = []
        for start in [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath(),
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
        ] {
            var directory = start
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent(name))
                directory.deleteLastPathComponent()
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build-tracing/debug/\(name)"))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(
            found, "\(name) is built (swift build --traits Tracing); looked in \(candidates.map(\.path))")
    }

    static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try ChildProcess.run(executable(name), arguments, environment: environment)
    }
}
