import BindExport
import Foundation
import Testing

@Suite("bind-trace export --format chrome-json")
struct ChromeJSONExportTests {
    @Test("the JSON parses, names its threads, and draws the same slices, nested the same, as the Perfetto file")
    func sameAsPerfetto() throws {
        let exported = try Exported(ExportTraces.propagation())
        defer { exported.cleanUp() }

        let json = exported.json.slices().map { "\($0.depth) \($0.event.name) \($0.event.time)-\($0.end)" }
        let perfetto = exported.perfetto.slices().map { "\($0.depth) \($0.event.name) \($0.event.time)-\($0.end)" }

        #expect(json == perfetto)
        #expect(exported.json.tracks.values.contains { $0.name == "main" && $0.threadID == 1 })
    }

    @Test("flows are top-level bind_id, flow_out on the bind, flow_in on the update delivering on another thread")
    func flows() throws {
        let exported = try Exported(ExportTraces.twoThreads())
        defer { exported.cleanUp() }
        let events = exported.json.events

        let bind = try #require(events.first { $0.category == "bind" })
        let update = try #require(events.first { $0.name.hasPrefix("update 'query'") })
        #expect(!bind.flowsOut.isEmpty)
        #expect(update.flowsIn == bind.flowsOut)
        #expect(bind.track != update.track)
    }

    @Test("hostile labels stay data: quotes, newlines, control characters and markup parse back as written")
    func hostileLabels() throws {
        let label = "\"},{\"ph\":\"E\"}\n</script><b>\u{1}\u{7F}\\"
        var trace = TraceWriterHelper.oneUpdate(label: label)
        trace.end()
        let exported = try Exported(trace.bytes)
        defer { exported.cleanUp() }

        let update = try #require(exported.json.events.first { $0.category == "update" })
        #expect(update.name == "update '\(label)' (String) at Model.swift:1")
        let perfettoUpdate = try #require(exported.perfetto.events.first { $0.category == "update" })
        #expect(perfettoUpdate.name == update.name)
        let text = try String(contentsOfFile: exported.jsonPath, encoding: .utf8)
        #expect(!text.contains("</script>"))
    }

    @Test("a label as long as a record holds is shortened in names, not copied into every event")
    func longLabel() throws {
        var trace = TraceWriterHelper.oneUpdate(label: String(repeating: "x", count: 16_000))
        trace.end()
        let exported = try Exported(trace.bytes)
        defer { exported.cleanUp() }

        let size = try FileManager.default.attributesOfItem(atPath: exported.jsonPath)[.size] as? Int ?? .max
        #expect(size < 8_000)
        let update = try #require(exported.json.events.first { $0.category == "update" })
        #expect(update.name.contains("more bytes)"))
    }
}
