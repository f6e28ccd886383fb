import Foundation
import Testing

/// A model (Output 1) outlives a cell's scope; the cell binds a closure to it inside the scope and
/// the model updates after the scope ended. Whether that closure is a leak depends on its handle.
private func cellTrace(dropsHandle: Bool) -> [UInt8] {
    var trace = TraceFileWriter(minor: 1)
    trace.thread(1)
    trace.output(1, line: 3, label: "model")
    trace.beginScope(1, name: "cell", line: 10)
    trace.bind(1, to: 1, line: 12, scope: 1)
    trace.endScope(1)
    if dropsHandle { trace.handleReleased(1) }
    trace.update(1)
    trace.end()
    return trace.bytes
}

@Suite("Subscription handle rules in bind-trace")
struct HandleRuleTests {
    @Test("a trace of this format is judged by its handles from its first event, as the library judges it")
    func heldHandleIsNoLeak() throws {
        // No handle event at all: the app still holds the Subscription, so nothing is leaked.
        let trace = try TemporaryTrace(cellTrace(dropsHandle: false))
        let out = try TemporaryDirectory()
        defer {
            trace.cleanUp()
            out.cleanUp()
        }
        let check = try Tool.run("check", trace.path)
        #expect(check.status == 0, "\(check.standardOutput)")
        #expect(!check.standardOutput.contains("leaked-subscription"))
        // The report replays the trace on its own: it judges it alike.
        let report = try Tool.run("report", trace.path, "-o", out.path)
        #expect(report.status == 0, "\(report.standardError)")
        let junit = String(decoding: try out.contents("junit.xml"), as: UTF8.self)
        #expect(junit.contains("no leaked-subscription") && !junit.contains("<failure"), "\(junit)")
    }

    @Test("the twin: a handle dropped while its closure is bound, after its scope ended, is a leaked subscription")
    func droppedHandleIsALeak() throws {
        let trace = try TemporaryTrace(cellTrace(dropsHandle: true))
        defer { trace.cleanUp() }
        let out = try TemporaryDirectory()
        defer { out.cleanUp() }
        let check = try Tool.run("check", trace.path)
        #expect(check.status == 1)
        #expect(
            check.standardOutput.contains("App/Screen.swift:12: warning: leaked-subscription"),
            "\(check.standardOutput)")
        _ = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", "none")
        let junit = String(decoding: try out.contents("junit.xml"), as: UTF8.self)
        #expect(junit.contains("leaked-subscription at App/Screen.swift:12"), "\(junit)")
    }
}
