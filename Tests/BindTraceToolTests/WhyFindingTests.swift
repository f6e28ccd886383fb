@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// An article screen (scope 1) binds a closure capturing itself strongly to its view model's
/// 'isBookmarked' (the view model is a property of the screen), and the scope ends with both alive:
/// a retain cycle the recorded captures prove. Then 'isBookmarked' is updated once more.
private struct CycleTrace {
    var writer = TraceWriter()
    var lateUpdate: UInt64 = 0

    init(label: String = "isBookmarked") {
        writer.thread(1, name: "main")
        let screen = SourceSite(file: "App/ArticleScreen.swift", line: 30)
        writer.event(.scopeBegan(id: 1, parent: 0, name: "article screen", site: screen))
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: 1, kind: .output, valueType: "Bool",
                    site: SourceSite(file: "App/ArticleViewModel.swift", line: 6),
                    label: label, scope: 1)))
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: 1, output: 1, site: SourceSite(file: "App/ArticleScreen.swift", line: 57), scope: 1)))
        writer.event(
            .captured(
                subscription: 1,
                captures: [
                    .init(
                        strength: .strong, type: "ArticleScreen", identity: 0x5000,
                        holds: [.init(path: ".viewModel.isBookmarked", output: 1)])
                ]))
        writer.event(.scopeEnded(id: 1))
        lateUpdate = writer.event(.updated(output: 1, cause: nil, preview: "true"))
        writer.end()
    }
}

@Suite("bind-trace why --finding: the life of a finding, the retain path by its captures, the fix")
struct WhyFindingTests {
    private func run(_ bytes: [UInt8], _ arguments: String...) throws -> (Tool.Run, String) {
        let file = try TemporaryTrace(bytes)
        defer { file.cleanUp() }
        return (try Tool.run(["why", file.path] + arguments), file.path)
    }

    @Test("check's explain-it line names the finding; running it tells its life, the captures and the path")
    func explainItLine() throws {
        let trace = CycleTrace()
        let file = try TemporaryTrace(trace.writer.bytes)
        defer { file.cleanUp() }
        let check = try Tool.run(["check", file.path])
        #expect(check.status == 1, "\(check.standardError)")
        let line = try #require(check.standardOutput.split(separator: "\n").first { $0.contains("explain it:") })
        let command = try #require(line.range(of: "explain it: ")).upperBound
        let commandText = String(line[command...])
        #expect(commandText.hasPrefix("bind-trace why \(file.path) --finding "))
        let fingerprint = String(try #require(commandText.split(separator: " ").last))

        let why = try Tool.run(["why", file.path, "--finding", fingerprint])
        #expect(why.status == 0, "\(why.standardError)")
        let text = why.standardOutput
        #expect(text.contains("App/ArticleScreen.swift:57: warning: retain-cycle"))
        #expect(text.contains("its life:"))
        #expect(
            text.contains("captures ArticleScreen strongly (holding .viewModel.isBookmarked: 'isBookmarked' (Bool))"))
        #expect(text.contains("scope 'article screen' ended"))
        #expect(text.contains("after its scope ended it received 1 update"))
        #expect(
            text.contains(
                "kept alive by: 'isBookmarked' (Bool) (the leak) → its subscriber list → subscription 1 (closure bound at "
                    + "ArticleScreen.swift:57) → captures ArticleScreen strongly → .viewModel.isBookmarked → 'isBookmarked' "
                    + "(Bool), the Output it is bound to"))
        #expect(text.contains("fix: capture the owner weakly in the closure at ArticleScreen.swift:57"))
        #expect(text.contains("how event \(trace.lateUpdate) came about:"))
    }

    @Test("by number, as JSON: one object with the life, the path, the fix and the chain")
    func byNumberJSON() throws {
        let (why, _) = try run(CycleTrace().writer.bytes, "--finding", "1", "--format", "json")
        #expect(why.status == 0, "\(why.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(why.standardOutput.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "retain-cycle")
        #expect((object["life"] as? [[String: Any]])?.isEmpty == false)
        #expect((object["keptAliveBy"] as? String)?.contains("captures ArticleScreen strongly") == true)
        #expect(object["chain"] is [String: Any])
    }

    @Test("a number or fingerprint that names no finding: one line, exit 2")
    func noSuchFinding() throws {
        let (byNumber, path) = try run(CycleTrace().writer.bytes, "--finding", "7")
        #expect(byNumber.status == 2)
        #expect(byNumber.standardError.contains("\(path): there is no finding 7 (the trace has 1"))
        let (byPrint, _) = try run(CycleTrace().writer.bytes, "--finding", "0123456789abcdef0123456789abcdef")
        #expect(byPrint.status == 2)
        #expect(byPrint.standardError.split(separator: "\n").count == 1)
    }

    @Test("a hostile label is told inert: no control characters reach the terminal")
    func hostileLabel() throws {
        let (why, _) = try run(CycleTrace(label: "evil\u{1B}[2J\nline").writer.bytes, "--finding", "1")
        #expect(why.status == 0, "\(why.standardError)")
        #expect(!why.standardOutput.contains("\u{1B}"))
    }
}
