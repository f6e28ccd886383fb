import BindTraceTestSupport
import Foundation
import Testing

/// A package whose target `App` lives at `Apps/App` (`path:` in its manifest), as SignInSample lives
/// at `Samples/SignInSample`: its SARIF locations must name `Apps/App/…`, with no option.
private struct ScratchPackage {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("bind-package-\(UUID().uuidString)").path
        let files = [
            "Package.swift": """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "Scratch", targets: [.executableTarget(name: "App", path: "Apps/App")])
            """,
            "Apps/App/main.swift": "print(1)\n",
            "Apps/App/Cell.swift": "let cell = 1\n",
        ]
        for (name, text) in files {
            let url = URL(fileURLWithPath: root).appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite("report's SARIF names the files where the package keeps them")
struct SARIFLayoutTests {
    /// The artifact URIs of the SARIF in `directory`.
    private func uris(_ out: TemporaryDirectory) throws -> [String] {
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: out.contents("findings.sarif")) as? [String: Any])
        let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        return results.flatMap { result in
            ((result["locations"] as? [[String: Any]]) ?? []).compactMap { location in
                ((location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"]
                    as? String
            }
        }
    }

    @Test("run in the package: a target outside Sources/ is found through swift package describe")
    func fromThePackage() throws {
        // Given a package with App at Apps/App, and a trace whose leak is at App/Cell.swift
        let package = try ScratchPackage()
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { package.cleanUp(); trace.cleanUp(); out.cleanUp() }

        // When report runs in the package's directory, with no --module-path
        let run = try ChildProcess.run(
            Tool.executable(), ["report", trace.path, "-o", out.path, "--fail-on", "none"], in: package.root)

        // Then SARIF names Apps/App/Cell.swift, not Sources/App/Cell.swift
        #expect(run.status == 0, "\(run.standardError)")
        let uris = try uris(out)
        #expect(uris.contains("Apps/App/Cell.swift"), "\(uris)")
        #expect(!uris.contains { $0.hasPrefix("Sources/") }, "\(uris)")
    }

    @Test("run elsewhere: the package is found up from the trace's directory")
    func fromTheTrace() throws {
        // Given the trace inside the package (demo/ of it) and report run from another directory
        let package = try ScratchPackage()
        let out = try TemporaryDirectory()
        defer { package.cleanUp(); out.cleanUp() }
        let traceDirectory = package.root + "/demo"
        try FileManager.default.createDirectory(atPath: traceDirectory, withIntermediateDirectories: true)
        let trace = traceDirectory + "/app.trace"
        try Data(GraphTraces.app()).write(to: URL(fileURLWithPath: trace))

        let run = try ChildProcess.run(
            Tool.executable(), ["report", trace, "-o", out.path, "--fail-on", "none"], in: out.path)

        #expect(run.status == 0, "\(run.standardError)")
        let found = try uris(out)
        #expect(found.contains("Apps/App/Cell.swift"), "\(found)")
    }

    @Test("without swift on PATH the report is still written, with SwiftPM's default layout")
    func withoutSwift() throws {
        let package = try ScratchPackage()
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { package.cleanUp(); trace.cleanUp(); out.cleanUp() }

        let run = try ChildProcess.run(
            Tool.executable(), ["report", trace.path, "-o", out.path, "--fail-on", "none"],
            environment: ["PATH": "/nonexistent"], in: package.root)

        #expect(run.status == 0, "\(run.standardError)")
        let found = try uris(out)
        #expect(found.contains("Sources/App/Cell.swift"), "\(found)")
    }

    @Test("--module-path still wins over the package's layout")
    func modulePathWins() throws {
        let package = try ScratchPackage()
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { package.cleanUp(); trace.cleanUp(); out.cleanUp() }

        let run = try ChildProcess.run(
            Tool.executable(),
            ["report", trace.path, "-o", out.path, "--fail-on", "none", "--module-path", "App=Elsewhere/App"],
            in: package.root)

        #expect(run.status == 0, "\(run.standardError)")
        let found = try uris(out)
        #expect(found.contains("Elsewhere/App/Cell.swift"), "\(found)")
    }
}
