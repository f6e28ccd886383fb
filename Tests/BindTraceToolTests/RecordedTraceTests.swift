#if Tracing
import Bind
import Foundation
import Testing

final class Label: BindableCompatible {
    var text = ""
}

@Suite("bind-trace on traces recorded by the instrumented build")
struct RecordedTraceTests {
    @Test("a capture written to a file: the leak and the feedback cycle at their lines")
    func capture() throws {
        let title = Output<String>(value: "Ada")
        var leakLine: UInt = 0
        var loopLine: UInt = 0
        let recording = try #require(
            BindTrace.capture("tool test") {
                BindTrace.scope("cell") {
                    leakLine = #line; _ = title.bind { _ in }
                }
                let name = Output<String>(value: "")
                let field = Output<String>(value: "")
                let bag = SubscriptionContainer()
                loopLine = #line; name.ignoringDuplicates().bind { field.update(withValue: $0) }.add(to: bag)
                field.ignoringDuplicates().bind { name.update(withValue: $0) }.add(to: bag)
                name.update(withValue: "Grace")
                bag.unsubscribe()
            })
        let trace = try TemporaryTrace(recording.bytes)
        defer { trace.cleanUp() }
        let file = "BindTraceToolTests/RecordedTraceTests.swift"

        let run = try Tool.run("check", "--scope", String(recording.scope), trace.path)

        #expect(run.status == 1)
        #expect(run.standardOutput.contains("\(file):\(leakLine): warning: leaked-subscription: "))
        #expect(run.standardOutput.contains("\(file):\(loopLine): error: feedback-cycle: "))
        #expect(run.standardOutput.contains("2 findings"))
    }

    @Test("a file recorded with startRecording and stopRecording")
    func recorderAPI() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bind-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.trace").path
        let title = Output<String>(value: "Ada")
        var bindLine: UInt = 0
        let scopeName = "recorder-api-\(UUID().uuidString)"

        try BindTrace.startRecording(toFile: path)
        BindTrace.scope(scopeName) {
            bindLine = #line; _ = title.bind(to: Label().binding[\.text])
            title.update(withValue: "Grace")
        }
        BindTrace.stopRecording()

        // Other tests record into the same file: judge only this scope, found by its unique name.
        let dump = try Tool.run("dump", path)
        #expect(dump.status == 0)
        let scopeLine = try #require(dump.standardOutput.split(separator: "\n").first { $0.contains(scopeName) })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(scopeLine.utf8)) as? [String: Any])
        let scope = try #require(object["scope"] as? Int)
        let run = try Tool.run("check", "--scope", String(scope), path)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("RecordedTraceTests.swift:\(bindLine): warning: dangling-binder: "))
    }
}
#endif
