import Foundation
import Testing

/// The README's recipe, run as a user would: the README's own `Package.swift` (a package that depends
/// on this one, by path here, and enables its `Tracing` trait through a trait of its own, `Bind` for
/// the app and `BindTesting` for its tests), a test target with XCTest and Swift Testing tests with
/// planted leaks, the README's `swift test --parallel` line recording one trace per process,
/// and one `bind-trace report` over them all. One of the tests also judges a trace of its own through
/// the `BindAnalysis` product, as a program of one's own would: the analysis API is public.
///
/// Slow (it builds a package): runs only with `BIND_E2E=1`, which `make test-e2e` (part of `make test`)
/// sets. It needs the recorder's per-process traces (`BIND_TRACE=dir/` → `<executable>-<pid>.trace`).
@Suite("the CI recipe in a user's package", .enabled(if: ProcessInfo.processInfo.environment["BIND_E2E"] != nil))
struct EndToEndRecipeTests {
    /// This package's root, which the user's package depends on by path.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The README's `Package.swift` (the block after its `<!-- recipe: Package.swift` marker), word for
    /// word but for where the dependency comes from: this checkout, by path, whose package name is its
    /// folder's name; and the test target also takes the `BindAnalysis` product. A README that no
    /// longer has those words fails here, so the two cannot drift.
    private static func manifest() throws -> String {
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        var text = try #require(
            codeBlock(after: "<!-- recipe: Package.swift", in: readme), "README.md has no recipe block")
        let dependency = #"url: "https://github.com/your-org/bind", from: "1.0.0""#
        try #require(text.contains(dependency), "the README's dependency reads \(dependency)")
        text = text.replacingOccurrences(of: dependency, with: "path: \"\(root)\"")
        let product = #"package: "bind")"#
        try #require(text.components(separatedBy: product).count == 3, "Bind and BindTesting from \(product)")
        let testing = #".product(name: "BindTesting", package: "bind")"#
        try #require(text.contains(testing), "the tests take \(testing)")
        text = text.replacingOccurrences(
            of: testing, with: testing + #", .product(name: "BindAnalysis", package: "bind")"#)
        return text.replacingOccurrences(
            of: product, with: "package: \"\(URL(fileURLWithPath: root).lastPathComponent)\")")
    }

    /// The README's `swift test` line of its CI recipe, as a shell command.
    private static func testCommand() throws -> String {
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let line = try #require(
            readme.split(separator: "\n").first { $0.contains("- run: BIND_TRACE=") && $0.contains("swift test") },
            "README.md's CI recipe runs swift test with BIND_TRACE")
        let command = line.split(separator: "#", maxSplits: 1)[0].replacingOccurrences(of: "- run:", with: "")
        return command.trimmingCharacters(in: .whitespaces)
    }

    /// The text of the first fenced code block after the line that starts with `marker`.
    private static func codeBlock(after marker: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let markerLine = lines.firstIndex(where: { $0.hasPrefix(marker) }),
            let open = lines[(markerLine + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { return nil }
        return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }

    private static let store = """
        import Bind
        import Foundation

        /// An app-wide store: lives for the whole process.
        public final class Store: @unchecked Sendable {
            public static let shared = Store()
            public let title = Output<String>(value: "inbox")
        }

        /// Writes the process id for the test named `name`, so the test can tell which worker ran it.
        public func recordProcess(for name: String) {
            guard let directory = ProcessInfo.processInfo.environment["E2E_PIDS"] else { return }
            try? String(getpid()).write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }

        """

    private static let xctests = """
        import Bind
        import MyApp
        import XCTest

        final class FirstScreenTests: XCTestCase {
            func testFirstScreen() {
                recordProcess(for: "xctest-1")
                let title = Store.shared.title  // the app-wide store exists before the screen
                BindTrace.scope("first screen") {
                    title.bind { _ in }  // planted leak: xctest-1
                }
            }
        }

        final class SecondScreenTests: XCTestCase {
            func testSecondScreen() {
                recordProcess(for: "xctest-2")
                let title = Store.shared.title  // the app-wide store exists before the screen
                BindTrace.scope("second screen") {
                    title.bind { _ in }  // planted leak: xctest-2
                }
            }
        }

        """

    private static let swiftTests = """
        import Bind
        import BindAnalysis
        import BindTesting
        import Foundation
        import MyApp
        import Testing

        // The recipe's BindTesting product: a checked test that leaves nothing bound passes.
        @Test(.bindingLeakCheck) func checkedScreen() {
            Store.shared.title.bind { _ in }.unsubscribe()
        }

        @Test func thirdScreen() {
            recordProcess(for: "swift-testing-1")
            let title = Store.shared.title  // the app-wide store exists before the screen
            BindTrace.scope("third screen") {
                title.bind { _ in }  // planted leak: swift-testing-1
            }
        }

        @Test func fourthScreen() {
            recordProcess(for: "swift-testing-2")
            let title = Store.shared.title  // the app-wide store exists before the screen
            BindTrace.scope("fourth screen") {
                title.bind { _ in }  // planted leak: swift-testing-2
            }
        }

        // A program of one's own judging a trace with the BindAnalysis product: open a trace file,
        // analyse it, read the findings and the summary. Other tests record into the capture while it
        // runs, so the analysis judges the capture's own scope.
        @Test func fifthScreenJudgedByTheAnalysisAPI() throws {
            recordProcess(for: "swift-testing-3")
            let title = Store.shared.title  // the app-wide store exists before the screen
            // Outside `#require`: inside a macro's argument, `bind`'s default `line:` is the macro's line.
            let captured = BindTrace.capture("fifth screen") {
                title.bind { _ in }  // planted leak: swift-testing-3
            }
            let recording = try #require(captured)
            let path = NSTemporaryDirectory() + "fifth-screen-" + String(getpid()) + ".trace"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(recording.bytes).write(to: URL(fileURLWithPath: path))

            let result = try TraceAnalyzer.analyze(path: path, options: AnalysisOptions(focusScope: recording.scope))
            let leak = try #require(result.findings.first)
            #expect(result.findings.count == 1)
            #expect(leak.kind == .leakedSubscription && leak.severity == .warning)
            #expect(leak.site?.file == "MyAppTests/LeakTests.swift")
            #expect(result.summary.findingsByKind.map { $0.kind } == [.leakedSubscription])
            #expect(result.summary.events > 0 && result.traceErrors.isEmpty)
        }

        """

    @Test(
        "one report holds the planted leaks of both frameworks and every worker, at their lines",
        .timeLimit(.minutes(30)))
    func recipe() throws {
        let package = try TemporaryDirectory()
        // BIND_E2E_KEEP=1 keeps the scratch package for a look (its path is in the failure messages).
        defer { if ProcessInfo.processInfo.environment["BIND_E2E_KEEP"] == nil { package.cleanUp() } }
        let files: [String: String] = [
            "Package.swift": try Self.manifest(), "Sources/MyApp/Store.swift": Self.store,
            "Tests/MyAppTests/LeakXCTests.swift": Self.xctests,
            "Tests/MyAppTests/LeakTests.swift": Self.swiftTests,
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: package.file(path))
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        // Resolve swift-argument-parser (our dependency) as this checkout does, from SwiftPM's cache.
        try? FileManager.default.copyItem(
            atPath: Self.root + "/Package.resolved", toPath: package.file("Package.resolved"))
        try FileManager.default.createDirectory(atPath: package.file("pids"), withIntermediateDirectories: true)

        // The recipe, as the README writes it.
        let test = try shell("E2E_PIDS=\"$PWD/pids\" " + Self.testCommand(), in: package.path)
        #expect(test.status == 0, "the tests pass; the leaks are for the gate: \(test.output.suffix(2_000))")
        let written = try? FileManager.default.contentsOfDirectory(atPath: package.file("bind-traces"))
        let traces = try #require(
            written, "BIND_TRACE=bind-traces/ made no directory of per-process traces in \(package.path)"
        ).filter { $0.hasSuffix(".trace") }
        #expect(traces.count >= 2, "one trace per process: \(traces)")

        let report = try Tool.run(["report", "bind-traces/", "-o", "bind-report"], in: package.path)
        #expect(report.status == 1, "findings, every trace whole: \(report.standardError)")
        let junit = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: package.file("bind-report/junit.xml"))), as: UTF8.self)
        // Code scanning annotates the test files themselves: their URIs are the package's real paths.
        let sarif = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: package.file("bind-report/findings.sarif"))))
        let uris = Set(Self.strings(named: "uri", in: sarif))
        #expect(uris.contains("Tests/MyAppTests/LeakXCTests.swift"), "\(uris)")
        #expect(uris.contains("Tests/MyAppTests/LeakTests.swift"), "\(uris)")
        #expect(!uris.contains { $0.hasPrefix("Sources/MyAppTests") })

        let check = try Tool.run(["check", "--format", "json", "bind-traces/"], in: package.path)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        let findings = (object["findings"] as? [[String: Any]]) ?? []

        let planted: [(name: String, file: String, source: String)] = [
            ("xctest-1", "MyAppTests/LeakXCTests.swift", Self.xctests),
            ("xctest-2", "MyAppTests/LeakXCTests.swift", Self.xctests),
            ("swift-testing-1", "MyAppTests/LeakTests.swift", Self.swiftTests),
            ("swift-testing-2", "MyAppTests/LeakTests.swift", Self.swiftTests),
            ("swift-testing-3", "MyAppTests/LeakTests.swift", Self.swiftTests),
        ]
        for leak in planted {
            let line = try #require(Self.line(of: "planted leak: \(leak.name)", in: leak.source))
            #expect(junit.contains("leaked-subscription at \(leak.file):\(line)"), "\(leak.name) in junit.xml")
            let finding = findings.first {
                ($0["site"] as? [String: Any])?["file"] as? String == leak.file
                    && ($0["site"] as? [String: Any])?["line"] as? Int == line
            }
            #expect(finding?["kind"] as? String == "leaked-subscription", "\(leak.name) at \(leak.file):\(line)")
            // The worker that ran the test wrote the trace holding its leak.
            let pid = try String(contentsOfFile: package.file("pids/\(leak.name)"), encoding: .utf8)
            let sawIt = (finding?["traces"] as? [String]) ?? []
            #expect(sawIt.contains { $0.hasSuffix("-\(pid).trace") }, "\(leak.name) ran in process \(pid): \(sawIt)")
        }
    }

    /// Every string value of a member called `name`, anywhere in a JSON object.
    private static func strings(named name: String, in json: Any) -> [String] {
        if let object = json as? [String: Any] {
            return object.flatMap { key, value in
                (key == name ? [value as? String].compactMap { $0 } : []) + strings(named: name, in: value)
            }
        }
        if let array = json as? [Any] { return array.flatMap { strings(named: name, in: $0) } }
        return []
    }

    private static func line(of marker: String, in source: String) -> Int? {
        source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(marker) }.map {
            $0 + 1
        }
    }

    private func shell(_ command: String, in directory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>&1"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
