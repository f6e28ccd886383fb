import BindAnalysis
import BindTraceModel
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("junit.xml and findings.sarif")
struct JUnitAndSARIFTests {
    let content: ReportContent = {
        var content = Fixtures.hostileContent()
        content.findings += [
            Fixtures.finding(.leakedSubscription, "App/List.swift", 9),
            Fixtures.finding(.feedbackCycle, "App/VM.swift", 30),
        ]
        return content
    }()

    @Test("JUnit XML parses, with a passing case per clean kind and a failing case per finding")
    func junitParses() throws {
        let document = try XMLDocument(data: Data(ReportWriter.junit(content).utf8))
        let root = try #require(document.rootElement())
        // Every kind is a check; a note's cases pass (they never fail a build).
        let kinds = Finding.Kind.allCases.count
        // 4 findings in 2 kinds; the other kinds pass.
        #expect(root.attribute(forName: "tests")?.stringValue == String(4 + kinds - 2))
        #expect(root.attribute(forName: "failures")?.stringValue == "4")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == kinds)
        let leaks = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == "leaked-subscription" })
        let cases = leaks.elements(forName: "testcase")
        #expect(cases.count == 2)
        let hostile = try #require(cases.first)
        let failure = try #require(hostile.elements(forName: "failure").first)
        #expect(
            failure.attribute(forName: "message")?.stringValue
                == "subscription to '\(Hostile.script)' \(Hostile.handler)")
        #expect(hostile.attribute(forName: "line")?.stringValue == "3")
        let clean = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == "dangling-binder" })
        #expect(clean.elements(forName: "testcase").count == 1)
        #expect(clean.elements(forName: "testcase").first?.elements(forName: "failure").isEmpty == true)
    }

    @Test("a note (stopped-combine) passes in JUnit with its text in system-out, and is level note in SARIF")
    func notePasses() throws {
        // Given one warning and one note
        var content = Fixtures.hostileContent()
        content.findings = [
            Fixtures.finding(.leakedSubscription, "App/List.swift", 9),
            Fixtures.finding(.stoppedCombine, "App/Form.swift", 12),
        ]

        // When the JUnit and SARIF reports are written
        let document = try XMLDocument(data: Data(ReportWriter.junit(content).utf8))
        let sarif = ReportWriter.sarif(content)

        // Then only the warning fails, and the note is there, passing
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        let suites = root.elements(forName: "testsuite")
        let stopped = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == "stopped-combine" })
        #expect(stopped.attribute(forName: "failures")?.stringValue == "0")
        let testCase = try #require(stopped.elements(forName: "testcase").first)
        #expect(testCase.elements(forName: "failure").isEmpty)
        #expect(testCase.elements(forName: "system-out").first?.stringValue?.contains("note: stopped-combine") == true)
        #expect(sarif.contains("\"level\": \"note\""), "a result of level note")
        #expect(!FailOn.warning.fails([content.findings[1]]), "--fail-on warning does not fail on a note")
        #expect(FailOn.warning.fails(content.findings))
    }

    @Test("SARIF parses as JSON with the 2.1.0 structure, rules, levels and lines")
    func sarifParses() throws {
        var options = ReportOptions()
        options.sources = SourceLocationMapping(modulePaths: ["App": "Apps/Main"], sourceRootURI: "file:///src/repo")
        let json = try JSONSerialization.jsonObject(with: Data(ReportWriter.sarif(content, options: options).utf8))
        let root = try #require(json as? [String: Any])
        #expect(root["version"] as? String == "2.1.0")
        #expect((root["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "bind-trace")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == Finding.Kind.allCases.map(\.rawValue))
        #expect(rules.allSatisfy { ($0["fullDescription"] as? [String: Any])?["text"] is String })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 4)
        #expect(results.map { $0["level"] as? String } == ["warning", "error", "warning", "error"])
        let first = results[0]
        #expect(
            (first["message"] as? [String: Any])?["text"] as? String
                == "subscription to '\(Hostile.script)' \(Hostile.handler)")
        let physical = try #require(
            ((first["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let artifact = try #require(physical["artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == "Apps/Main/javascript%3Aalert%283%29.swift")
        #expect(artifact["uriBaseId"] as? String == "SRCROOT")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 3)
        let related = try #require(first["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1)
        let bases = try #require(run["originalUriBaseIds"] as? [String: Any])
        #expect((bases["SRCROOT"] as? [String: Any])?["uri"] as? String == "file:///src/repo/")
    }

    @Test("a #fileID maps to Sources/<Module>/<File> unless the module is mapped")
    func sourceMapping() {
        let mapping = SourceLocationMapping(modulePaths: ["SignInSample": "Samples/SignInSample"])
        #expect(mapping.uri(for: "App/Cell.swift") == "Sources/App/Cell.swift")
        #expect(mapping.uri(for: "SignInSample/main.swift") == "Samples/SignInSample/main.swift")
        #expect(mapping.uri(for: "App/My File.swift") == "Sources/App/My%20File.swift")
        // A test target, by SwiftPM's layout, is under Tests/ (unless mapped).
        #expect(mapping.uri(for: "AppTests/CellTests.swift") == "Tests/AppTests/CellTests.swift")
        #expect(
            SourceLocationMapping(modulePaths: ["AppTests": "Checks/AppTests"]).uri(for: "AppTests/A.swift")
                == "Checks/AppTests/A.swift")
    }

    @Test("--fail-on decides the exit status from the worst finding")
    func failOn() {
        let warning = [Fixtures.finding(.leakedOutput)]
        let error = [Fixtures.finding(.leakedOutput), Fixtures.finding(.structuralCycle)]
        #expect(FailOn.warning.exitStatus(for: warning) == 1)
        #expect(FailOn.error.exitStatus(for: warning) == 0)
        #expect(FailOn.error.exitStatus(for: error) == 1)
        #expect(FailOn.none.exitStatus(for: error) == 0)
        #expect(FailOn.warning.exitStatus(for: []) == 0)
        #expect(FailOn.error.failing(error).map(\.kind) == [.structuralCycle])
    }
}
