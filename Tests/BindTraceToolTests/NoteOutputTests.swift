import Foundation
import Testing

/// A screen's scope runs on thread 1 while thread 2, carrying no scope, binds: the work was most
/// likely handed over without its scope. `bind-trace` says so in a note, never a finding.
private func handOffTrace() -> [UInt8] {
    var trace = TraceFileWriter(minor: 1)
    trace.thread(1)
    trace.output(1, line: 3, label: "clock ticks")
    trace.beginScope(1, name: "stopwatch screen", line: 10)
    trace.thread(2)
    trace.bind(1, to: 1, file: "App/Timer.swift", line: 40)
    trace.thread(1)
    trace.endScope(1)
    trace.update(1)
    trace.end()
    return trace.bytes
}

@Suite("notes: binds no scope could judge")
struct NoteOutputTests {
    @Test("check prints the note on standard error and in the JSON's notes, and exits 0: a note is no finding")
    func noteIsPrintedNotCounted() throws {
        let trace = try TemporaryTrace(handOffTrace())
        defer { trace.cleanUp() }

        let text = try Tool.run("check", trace.path)
        #expect(text.status == 0, "\(text.standardOutput)")
        #expect(text.standardError.contains("App/Timer.swift:40: note: bound on a thread that runs no trace scope"))
        #expect(text.standardError.contains("'stopwatch screen'"), "\(text.standardError)")

        let json = try Tool.run("check", "--format", "json", trace.path)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let notes = try #require(object["notes"] as? [[String: Any]])
        #expect(notes.count == 1)
        let site = notes.first?["site"] as? [String: Any]
        #expect(site?["file"] as? String == "App/Timer.swift" && site?["line"] as? Int == 40)
        #expect((object["findings"] as? [Any])?.isEmpty == true)
    }
}
