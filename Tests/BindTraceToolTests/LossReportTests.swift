import BindTraceFormat
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@Suite("bind-trace on traces that admit a loss or repeat a chunk")
struct LossReportTests {
    @Test("hundreds of lost records are one warning line per trace, and the gate fails with exit 3")
    func lossesInOneLine() throws {
        // Given a trace whose disk filled up: a lost record after every event
        var writer = TraceWriter()
        for output in UInt64(1)...400 {
            writer.event(.released(output: output))
            writer.lost(10_921)
        }
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        // When it is checked
        let run = try Tool.run("check", trace.path)

        // Then one warning says how much was lost where, and the gate does not pass
        let warnings = run.standardError.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 1, "\(run.standardError)")
        #expect(warnings.first?.contains("the recorder lost 4368400 events in 400 places") == true)
        #expect(run.status == 3)
    }

    @Test("a chunk written twice is read once: check counts its events once")
    func repeatedChunkCountedOnce() throws {
        var writer = TraceWriter()
        writer.chunk(1) { chunk in
            for output in UInt64(1)...10 { chunk.event(.released(output: output)) }
        }
        let second = writer.chunk(2) { chunk in
            for output in UInt64(11)...20 { chunk.event(.released(output: output)) }
        }
        writer.bytes += second
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        let run = try Tool.run("check", "--allow-incomplete", trace.path)

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("(20 events)"), "\(run.standardOutput)")
        #expect(run.standardError.contains("chunk 2 is written again"), "\(run.standardError)")
    }
}
