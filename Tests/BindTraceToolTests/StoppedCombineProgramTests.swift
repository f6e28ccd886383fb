import BindTraceTestSupport
import Foundation
import Testing

/// `stopped-combine` on traces of a real program, built as users build it: debug, and release
/// (`-c release`, where the optimiser may release a source after its last use). `make test` builds
/// the release fixture first (`make release-fixture`); `BIND_RELEASE_FIXTURE` names another.
@Suite("stopped-combine on a program's trace, debug and release builds", .requiresTracing)
struct StoppedCombineProgramTests {
    static var debugFixture: URL? {
        (try? Tool.executable()).map { $0.resolvingSymlinksInPath().deletingLastPathComponent() }
            .map { $0.appendingPathComponent("TraceFixture") }
    }

    static var releaseFixture: URL? {
        if let path = ProcessInfo.processInfo.environment["BIND_RELEASE_FIXTURE"] {
            return URL(fileURLWithPath: path)
        }
        // Beside this build's products: <scratch>/<triple>/debug → <scratch>/<triple>/release.
        guard let debug = debugFixture else { return nil }
        let release = debug.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("release/TraceFixture")
        return FileManager.default.isExecutableFile(atPath: release.path) ? release : nil
    }

    @Test("debug: a combine whose source was released drops the next update, and check notes it at its line")
    func releasedSourceDebug() throws {
        try releasedSource(fixture: try #require(Self.debugFixture))
    }

    @Test(
        "release: a combine whose source was released drops the next update, and check notes it at its line",
        .enabled(if: releaseFixture != nil, "build it with `make release-fixture`"))
    func releasedSourceRelease() throws {
        try releasedSource(fixture: try #require(Self.releaseFixture))
    }

    @Test("debug: the published combine(outputs:) example delivers, or a note says why it did not")
    func arrayExampleDebug() throws {
        let delivered = try arrayExample(fixture: try #require(Self.debugFixture))
        // Unoptimised code keeps a local until the end of its scope.
        #expect(delivered)
    }

    @Test(
        "release: the published combine(outputs:) example delivers, or a note says why it did not",
        .enabled(if: releaseFixture != nil, "build it with `make release-fixture`"))
    func arrayExampleRelease() throws {
        _ = try arrayExample(fixture: try #require(Self.releaseFixture))
    }

    @Test("debug: a combine whose source a helper did not keep, bound after it stopped: check notes it at its line")
    func helperSourceDebug() throws {
        try helperSource(fixture: try #require(Self.debugFixture))
    }

    @Test(
        "release: a combine whose source a helper did not keep, bound after it stopped: check notes it at its line",
        .enabled(if: releaseFixture != nil, "build it with `make release-fixture`"))
    func helperSourceRelease() throws {
        try helperSource(fixture: try #require(Self.releaseFixture))
    }

    /// Runs `combine-helper`: the combine stopped before its result was bound, so it delivers its
    /// stored pair and nothing more, and `check --fail-on note` fails on the note at its line.
    private func helperSource(fixture: URL) throws {
        let trace = try TemporaryTrace([])
        defer { trace.cleanUp() }
        let run = try ChildProcess.run(fixture, ["3", "combine-helper"], environment: ["BIND_TRACE": trace.path])
        #expect(run.status == 0)
        #expect(!run.standardOutput.contains("delivered 0 3"), "the combine stopped: \(run.standardOutput)")

        let check = try Tool.run("check", "--at-exit", "--fail-on", "note", trace.path)

        #expect(check.status != 0, "the note fails the gate: \(check.standardOutput)")
        let line = try fixtureLine { $0.contains("return Output<Int>.combine(first, second).labeled(\"combined\")") }
        let note = check.standardOutput.split(separator: "\n").first {
            $0.hasPrefix("TraceFixture/main.swift:\(line): note: stopped-combine: ")
        }
        #expect(note?.contains("'first'") == true, "\(check.standardOutput)")
        let created = try fixtureLine { $0.contains("let first = Output<Int>(value: 0).labeled(\"first\")") }
        #expect(
            check.standardOutput.contains(
                "    TraceFixture/main.swift:\(created): note: 'first' (Int) is created here"),
            "\(check.standardOutput)")
    }

    /// Runs `combine-released` and checks what it printed and what `check` says.
    private func releasedSource(fixture: URL) throws {
        let trace = try TemporaryTrace([])
        defer { trace.cleanUp() }
        // Given a combine, bound, whose first source is released before the second updates 3 times
        let run = try ChildProcess.run(fixture, ["3", "combine-released"], environment: ["BIND_TRACE": trace.path])
        #expect(run.status == 0)
        // Then it delivered only its first pair
        #expect(run.standardOutput == "delivered 0 0\n")

        // When the trace is checked
        let check = try Tool.run("check", trace.path)

        // Then a note at the combine's line names the released source, and the status stays 0
        #expect(check.status == 0, "a note never fails: \(check.standardError)")
        let line = try fixtureLine { $0.contains("let combined = Output<Int>.combine(first!, second)") }
        let note = check.standardOutput.split(separator: "\n").first {
            $0.hasPrefix("TraceFixture/main.swift:\(line): note: stopped-combine: ")
        }
        #expect(note?.contains("'first'") == true, "\(check.standardOutput)")
        #expect(note?.contains("'second'") == true, "\(check.standardOutput)")
        let created = try fixtureLine { $0.contains("var first: Output<Int>? = Output<Int>(value: 0)") }
        #expect(
            check.standardOutput.contains(
                "    TraceFixture/main.swift:\(created): note: 'first' (Int) is created here"),
            "\(check.standardOutput)")
    }

    /// Runs `combine-array`; returns whether the combine delivered `[1, 2]`, having checked that
    /// `check` notes the stop exactly when it did not.
    private func arrayExample(fixture: URL) throws -> Bool {
        let trace = try TemporaryTrace([])
        defer { trace.cleanUp() }
        let run = try ChildProcess.run(fixture, ["1", "combine-array"], environment: ["BIND_TRACE": trace.path])
        #expect(run.status == 0)
        let delivered = run.standardOutput.contains("delivered [1, 2]")
        let check = try Tool.run("check", trace.path)
        #expect(check.status == 0, "\(check.standardError)")
        let line = try fixtureLine { $0.contains("Output<Int>.combine(outputs: sources)") }
        let noted = check.standardOutput.contains("TraceFixture/main.swift:\(line): note: stopped-combine: ")
        #expect(noted == !delivered, "delivered: \(run.standardOutput); check: \(check.standardOutput)")
        return delivered
    }

    /// The 1-based line of Tests/Fixtures/TraceFixture/main.swift that `matches`.
    private func fixtureLine(_ matches: (Substring) -> Bool) throws -> Int {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/TraceFixture/main.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let index = lines.firstIndex(where: matches)
        return try #require(index, "the fixture holds the line") + 1
    }
}
