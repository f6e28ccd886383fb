import BindTraceTestSupport
import Foundation
import Testing

/// Every JSON output with a schema in docs/schemas/ is validated by a standard Draft 2020-12
/// validator (Python's `jsonschema`, installed by `make setup`), on a real trace of SignInSample.
@Suite(
    "bind-trace's JSON outputs match their schemas under a standard validator",
    .enabled(if: RecordedSample.isRecordable, "the sample records only in the instrumented build (--traits Tracing)"),
    .enabled(if: PythonChecks.hasJSONSchema, "python3 with jsonschema is not installed: make setup installs it")
)
struct JSONSchemaTests {
    /// The command lines whose output each schema describes, after `bind-trace COMMAND TRACE`.
    private static func commands(for schema: String, events: [[String: Any]]) -> [[String]] {
        switch schema {
        case "why":
            // Every kind of step: each root and hop of the labelled chains, a closure's delivery, a
            // bind (its first delivery), an unbind and a release (not updates: `other`).
            var lines = [
                ["why", "--label", "status"], ["why", "--label", "can submit"],
                ["why", "--label", "status", "--nth", "1"],
                ["why", "--closure", "SignInScreen.swift:19"],
            ]
            for kind in ["bound", "unbound", "released", "outputCreated"] {
                if let event = events.first(where: { $0["event"] as? String == kind })?["seq"] as? Int {
                    lines.append(["why", "--event", String(event)])
                }
            }
            return lines.map { $0 + ["--format", "json"] }
        case "why-finding":
            // Every finding of the sample's trace, by its number in check's list.
            return (1...8).map { ["why", "--finding", String($0), "--format", "json"] }
        case "check":
            return [["check"], ["leaks"], ["cycles"], ["check", "--at-exit"]].map { $0 + ["--format", "json"] }
        default:
            return []
        }
    }

    @Test("every schema in docs/schemas is a valid Draft 2020-12 schema and has outputs checked against it")
    func everySchemaIsChecked() throws {
        let names = try Schemas.names()
        #expect(names.contains("why") && names.contains("check"))
        // diff compares two runs: DiffCommandTests.jsonSchema validates its real output the same way.
        for name in names where name != "diff" {
            #expect(!Self.commands(for: name, events: []).isEmpty, "\(name).schema.json has commands to check")
        }
    }

    @Test(
        "the real outputs of why and check on a recorded SignInSample trace are valid",
        arguments: ["why", "why-finding", "check"])
    func realOutputs(schema: String) throws {
        // Given a trace recorded by the instrumented sample, with values
        let sample = try RecordedSample()
        defer { sample.cleanUp() }
        let events = try sample.events()

        // When each command writes its JSON
        var documents: [String] = []
        for arguments in Self.commands(for: schema, events: events) {
            let run = try Tool.run([arguments[0], sample.path] + arguments.dropFirst())
            #expect([0, 1].contains(run.status), "\(arguments): \(run.standardError)")
            #expect(run.standardOutput.split(separator: "\n").count == 1, "\(arguments): one line")
            documents.append(run.standardOutput)
        }

        // Then the validator finds nothing wrong, null members included
        let problems = try PythonChecks.jsonSchemaProblems(schema: Schemas.path(schema), documents: documents)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        if schema == "why" {
            #expect(documents.contains { $0.contains("\"via\":null") }, "a root step's via is null")
            #expect(documents.contains { $0.contains("\"deliveredTo\":null") })
            #expect(documents.contains { $0.contains("\"deliveredTo\":{") }, "--closure names the subscription")
        }
    }

    @Test("the validator rejects a null where the schema has no null, so it can fail")
    func validatorCanFail() throws {
        let problems = try PythonChecks.jsonSchemaProblems(
            schema: Schemas.path("why"),
            documents: [
                #"{"version":1,"trace":"t","event":1,"complete":true,"chain":[],"deliveredTo":3}"#,
                #"{"version":1,"trace":"t","event":1,"complete":true,"chain":[]}"#,
            ])
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.first?.hasPrefix("document 1: deliveredTo: ") == true, "\(problems)")
        #expect(problems.last?.contains("'deliveredTo' is a required property") == true, "\(problems)")
    }
}
