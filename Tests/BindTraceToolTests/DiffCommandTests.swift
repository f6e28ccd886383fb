import BindTraceTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("bind-trace diff: what changed between two runs")
struct DiffCommandTests {
    /// Writes `base` and `head` as traces and runs `bind-trace diff BASE HEAD arguments…`.
    private func diff(_ base: DiffApp, _ head: DiffApp, _ arguments: [String] = []) throws -> Tool.Run {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try Data(base.bytes).write(to: URL(fileURLWithPath: directory.file("base.trace")))
        try Data(head.bytes).write(to: URL(fileURLWithPath: directory.file("head.trace")))
        return try Tool.run(["diff", directory.file("base.trace"), directory.file("head.trace")] + arguments)
    }

    /// The diff as JSON.
    private func json(_ base: DiffApp, _ head: DiffApp, _ arguments: [String] = []) throws -> [String: Any] {
        let run = try diff(base, head, ["--format", "json"] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }

    private func names(_ json: [String: Any], _ group: String, _ which: String) -> [String] {
        let items = (json[group] as? [String: Any])?[which] as? [[String: Any]] ?? []
        return items.compactMap { $0["name"] as? String ?? $0["kind"] as? String }
    }

    @Test("two runs of one program match though every id and address differs: nothing changed")
    func sameProgramDifferentIDs() throws {
        // Given two runs of one program, the second with other ids and Binder addresses
        let run = try diff(
            DiffApp(leaks: true), DiffApp(idBase: 1000, leaks: true),
            [
                "--fail-on", "new-findings", "--fail-on", "growth",
            ])
        // Then nothing is new, fixed, grown, added or removed, and the gates pass
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(
            run.standardOutput.contains(
                "bind-trace: diff: 0 new findings, 0 fixed, 1 unchanged; 0 sites grown; 0 sites added, 0 removed; "
                    + "0 edges added, 0 removed"), "\(run.standardOutput)")
    }

    @Test("a leak only HEAD has is a new finding, and --fail-on new-findings fails (exit 1)")
    func newLeak() throws {
        let run = try diff(DiffApp(), DiffApp(leaks: true), ["--fail-on", "new-findings"])
        #expect(run.status == 1)
        let section = try #require(run.standardOutput.components(separatedBy: "new findings (1):\n").last)
        #expect(section.hasPrefix("  App/Cell.swift:12: warning: leaked-subscription: "), "\(run.standardOutput)")
        // Without the gate, a written diff is a success
        #expect(try diff(DiffApp(), DiffApp(leaks: true)).status == 0)
    }

    @Test("a leak only BASE had is fixed, and fails no gate")
    func fixedLeak() throws {
        let run = try diff(DiffApp(leaks: true), DiffApp(), ["--fail-on", "new-findings", "--fail-on", "growth"])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("fixed findings (1):\n  App/Cell.swift:12: warning: leaked-subscription: "))
        #expect(!run.standardOutput.contains("new findings ("))
    }

    @Test("a site updated ×150 and 149 more has grown: --fail-on growth fails; a higher --growth-minimum passes")
    func grownSite() throws {
        let run = try diff(DiffApp(updates: 1), DiffApp(updates: 150), ["--fail-on", "growth"])
        #expect(run.status == 1)
        #expect(
            run.standardOutput.contains(
                "growth (×2 and at least 100 more) (2):\n  App/Form.swift:3: output 'email' (String): updates 1 → 150 (×150.0, grown)"
            ), "\(run.standardOutput)")
        // The JSON says which counts grew, with the ratio
        let document = try json(DiffApp(updates: 1), DiffApp(updates: 150))
        let changed = try #require((document["sites"] as? [String: Any])?["changed"] as? [[String: Any]])
        let email = try #require(changed.first { $0["name"] as? String == "'email' (String)" })
        #expect((email["grown"] as? [String])?.contains("updates") == true)
        let updates = try #require((email["metrics"] as? [String: Any])?["updates"] as? [String: Any])
        #expect(updates["ratio"] as? Double == 150)
        // Below the threshold (100 more than 1 is not 1,000 more), noise does not fail the build
        let quiet = try diff(
            DiffApp(updates: 1), DiffApp(updates: 150), ["--fail-on", "growth", "--growth-minimum", "1000"])
        #expect(quiet.status == 0)
        #expect(quiet.standardOutput.contains("0 sites grown"))
    }

    @Test("an operator edge HEAD added and one it removed, with their sites")
    func addedAndRemovedEdge() throws {
        let document = try json(DiffApp(), DiffApp(dropsValid: true, addsFilter: true))
        #expect(names(document, "edges", "added") == ["'normalized' (String) → filter → 'non-empty' (String)"])
        #expect(names(document, "edges", "removed") == ["'email' (String) → map → 'valid' (Bool)"])
        #expect(names(document, "sites", "added") == ["'non-empty' (String)"])
        #expect(names(document, "sites", "removed") == ["'valid' (Bool)"])
    }

    @Test("a run's directory against a single trace: the directory's traces are one run, counts summed")
    func directoryAgainstTrace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(atPath: directory.file("base"), withIntermediateDirectories: true)
        try Data(DiffApp(updates: 1).bytes).write(to: URL(fileURLWithPath: directory.file("base/a-1.trace")))
        try Data(DiffApp(idBase: 500, updates: 1).bytes).write(
            to: URL(fileURLWithPath: directory.file("base/a-2.trace")))
        try Data(DiffApp(idBase: 77, updates: 2).bytes).write(to: URL(fileURLWithPath: directory.file("head.trace")))

        let run = try Tool.run(["diff", directory.file("base"), directory.file("head.trace"), "--format", "json"])

        #expect(run.status == 0, "\(run.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let base = try #require(document["base"] as? [String: Any])
        #expect((base["files"] as? [String])?.count == 2)
        // Two processes of one update each are one run of two updates: 'email''s updates did not
        // change, its Outputs created did (one per process)
        let changed = try #require((document["sites"] as? [String: Any])?["changed"] as? [[String: Any]])
        let email = try #require(changed.first { $0["name"] as? String == "'email' (String)" })
        let metrics = try #require(email["metrics"] as? [String: [String: Any]])
        #expect(metrics["updates"]?["base"] as? Int == 2 && metrics["updates"]?["head"] as? Int == 2)
        #expect(metrics["outputsCreated"]?["base"] as? Int == 2 && metrics["outputsCreated"]?["head"] as? Int == 1)
        #expect(names(document, "sites", "added").isEmpty && names(document, "sites", "removed").isEmpty)
    }

    @Test("an incomplete trace says so on one line and exits 3, never crashes; --allow-incomplete accepts it")
    func incompleteTrace() throws {
        var cut = DiffApp(updates: 3)
        cut.ends = false
        let run = try diff(DiffApp(), cut)
        #expect(run.status == 3)
        #expect(run.standardError.contains("head.trace: incomplete trace (HEAD): "), "\(run.standardError)")
        #expect(run.standardError.contains("no end record"))
        #expect(run.standardOutput.contains("incomplete trace (HEAD): "))
        #expect(try diff(DiffApp(), cut, ["--allow-incomplete"]).status == 0)
        // A trace cut in the middle of a record: read up to the cut, said so
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let bytes = DiffApp(updates: 3).bytes
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("base.trace")))
        try Data(bytes.prefix(bytes.count - 7)).write(to: URL(fileURLWithPath: directory.file("head.trace")))
        let truncated = try Tool.run(["diff", directory.file("base.trace"), directory.file("head.trace")])
        #expect(truncated.status == 3)
        #expect(truncated.standardError.contains("incomplete trace (HEAD)"), "\(truncated.standardError)")
    }

    @Test("a file that is not a trace: one line naming it, exit 2")
    func badInput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        try Data(DiffApp().bytes).write(to: URL(fileURLWithPath: directory.file("head.trace")))
        let run = try Tool.run(["diff", directory.file("notes.txt"), directory.file("head.trace")])
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("bind-trace: \(directory.file("notes.txt")): "), "\(run.standardError)")
        #expect(run.standardError.split(separator: "\n").count == 1)
    }

    static let hostile = ("<script>alert(1)</script> [x](https://evil.example) @team *b* | cell", "\u{202E}evil\nline")

    @Test("hostile labels are text in the Markdown and the SVG")
    func hostileLabels() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let head = DiffApp(labels: Self.hostile)
        let run = try diff(DiffApp(), head, ["--format", "markdown", "--svg", directory.file("diff.svg")])
        #expect(run.status == 0, "\(run.standardError)")
        let markdown = run.standardOutput
        #expect(markdown.contains("&lt;script&gt;alert\\(1\\)&lt;/script&gt;"), "\(markdown)")
        #expect(markdown.contains("\\*b\\* \\| cell"), "a table cell's bar is escaped")
        for raw in ["<script", "](https", "@team", "*b*", "\u{202E}", "evil\nline"] {
            #expect(!markdown.contains(raw), "\(raw)")
        }
        #expect(markdown.contains("\\u{202E}evil line"))
        // The SVG parses as XML, holds no script, and shows the label as text
        let svg = SVGText(try directory.contents("diff.svg"))
        #expect(svg.parsed, "\(svg.parseError ?? "")")
        #expect(!svg.elements.contains("script"))
        #expect(svg.texts.contains { $0.contains("<script>alert(1)</script>") }, "\(svg.texts)")
        #expect(svg.texts.contains("Changes since BASE (unchanged sites away from a change not drawn)"))
    }

    @Test("--format json is valid against docs/schemas/diff.schema.json (Draft 2020-12, python jsonschema)")
    func schema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let run = try diff(
            DiffApp(leaks: true), DiffApp(idBase: 40, updates: 300, dropsValid: true, addsFilter: true),
            ["--format", "json"])
        #expect(run.status == 0)
        try Data(run.standardOutput.utf8).write(to: URL(fileURLWithPath: directory.file("diff.json")))
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/schemas/diff.schema.json").path
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                sys.exit("python jsonschema is missing: pip install jsonschema")
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
            for error in errors: print(list(error.path), error.message)
            sys.exit(1 if errors else 0)
            """
        let check = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, schema, directory.file("diff.json")])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }
}

@Suite("bind-trace report --base: the Changes since BASE section")
struct ReportBaseTests {
    @Test("the report of HEAD with --base has the section, hostile labels escaped, and its picture")
    func section() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try Data(DiffApp().bytes).write(to: URL(fileURLWithPath: directory.file("base.trace")))
        try Data(DiffApp(leaks: true, labels: DiffCommandTests.hostile).bytes)
            .write(to: URL(fileURLWithPath: directory.file("head.trace")))

        let run = try Tool.run([
            "report", directory.file("head.trace"), "--base", directory.file("base.trace"), "-o",
            directory.file("report"), "--fail-on", "none",
        ])

        #expect(run.status == 0, "\(run.standardError)")
        let page = String(decoding: try directory.contents("report/index.html"), as: UTF8.self)
        #expect(page.contains("<section id=\"changes\"><h2>Changes since BASE</h2>"))
        #expect(page.contains("1 new finding, 0 fixed, 0 unchanged"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!page.contains("<script>alert(1)"))
        #expect(page.contains("alt=\"Site graph of the changes since BASE\""))
        // Without --base, no section
        let plain = try Tool.run([
            "report", directory.file("head.trace"), "-o", directory.file("plain"), "--fail-on", "none",
        ])
        #expect(plain.status == 0)
        #expect(!String(decoding: try directory.contents("plain/index.html"), as: UTF8.self).contains("id=\"changes\""))
    }
}
