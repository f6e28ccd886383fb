@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@testable import BindExport

@Suite("bind-trace export: the Perfetto trace, decoded by protoc")
struct PerfettoExportTests {
    @Test("the file is protobuf that protoc decodes, one packet per descriptor and event")
    func wireFormat() throws {
        let exported = try Exported(ExportTraces.propagation())
        defer { exported.cleanUp() }

        let raw = try Protoc.decodeRaw(exported.perfettoPath)

        // Field 1 of Trace is the packet: every top-level field is one.
        let topLevel = raw.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0 != "}" }
        #expect(!topLevel.isEmpty)
        #expect(topLevel.allSatisfy { $0 == "1 {" })
        #expect(topLevel.count == exported.perfetto.events.count + exported.perfetto.tracks.count)
    }

    @Test("Perfetto's own schema finds an unknown field and a field of the wrong wire type (the check can fail)")
    func schemaCheckCanFail() throws {
        // Given an exported file with two packets appended: one holding field 999, which TracePacket
        // does not have, and one whose timestamp (field 8, a varint) is written length-delimited
        let exported = try Exported(ExportTraces.propagation())
        defer { exported.cleanUp() }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: exported.perfettoPath)))
        let unknownField: [UInt8] = [0xB8, 0x3E, 0x01]
        let wrongWireType: [UInt8] = [0x42, 0x01, 0x00]
        for packet in [unknownField, wrongWireType] { bytes += [0x0A, UInt8(packet.count)] + packet }
        let damaged = exported.directory.appendingPathComponent("damaged.pftrace")
        try Data(bytes).write(to: damaged)
        try #require(
            PythonChecks.hasPerfetto, "python3 with Perfetto's schema (python3 -m pip install perfetto; make setup)")

        // When Perfetto's schema reads both
        let good = try PythonChecks.perfettoProblems(exported.perfettoPath)
        let bad = try PythonChecks.perfettoProblems(damaged.path)

        // Then only the damaged one has problems, each named by its place
        #expect(good.isEmpty, "\(good)")
        #expect(bad.contains { $0.hasPrefix("trace.packet[") && $0.contains("unknown field 999") }, "\(bad)")
        #expect(bad.contains { $0.contains("unknown field 8 (wire type 2)") }, "\(bad)")
    }

    @Test("each recorded thread is a track with its recorded name, under the process; each scope a track")
    func descriptors() throws {
        let exported = try Exported(ExportTraces.twoThreads())
        defer { exported.cleanUp() }
        let tracks = exported.perfetto.tracks

        let process = try #require(tracks.first { $0.value.kind == "process" })
        #expect(process.value.name == "app.trace")
        let threads = tracks.values.filter { $0.kind == "thread" }.sorted { ($0.threadID ?? 0) < ($1.threadID ?? 0) }
        #expect(threads.map(\.name) == ["main", "worker"])
        #expect(threads.map(\.threadID) == [1, 2])
        let scope = try #require(tracks.values.first { $0.name == "scope 'search'" })
        #expect(scope.kind == process.key)
    }

    @Test("an update is a slice holding the closures it ran and the updates they caused, as replay nests them")
    func nesting() throws {
        let exported = try Exported(ExportTraces.propagation())
        defer { exported.cleanUp() }
        let depths = try exported.replayDepths()

        let drawn = exported.perfetto.slices().filter { ["update", "bind"].contains($0.event.category) }

        #expect(drawn.count == depths.count)
        for slice in drawn {
            let sequence = try #require(slice.event.arguments["event"].flatMap { UInt64($0) })
            // Each level of the replay is two slices here: the delivery, and the closure it ran.
            #expect(slice.depth == 2 * (depths[sequence] ?? -1), "\(slice.event.name)")
        }
        let d = try #require(exported.perfetto.slices(named: "update 'd'").first)
        #expect(
            d.ancestors == [
                "update 'a' (String) at Model.swift:1", "closure bound at View.swift:10",
                "update 'b' (String) at Model.swift:2", "closure bound at View.swift:12",
            ])
        let c = try #require(exported.perfetto.slices(named: "update 'c'").first)
        #expect(c.ancestors == ["update 'a' (String) at Model.swift:1", "closure bound at View.swift:11"])
        // The first update of 'a' is a slice to its last inner event; the second one caused nothing.
        let updatesOfA = exported.perfetto.slices(named: "update 'a'")
        #expect(updatesOfA.map(\.isInstant) == [false, true])
        #expect(updatesOfA[0].end == c.event.time)
    }

    @Test("slices carry the Output id, the cause and the event's sequence number as annotations")
    func annotations() throws {
        let exported = try Exported(ExportTraces.propagation())
        defer { exported.cleanUp() }

        let b = try #require(exported.perfetto.slices(named: "update 'b'").first)

        #expect(b.event.arguments["output"] == "2")
        #expect(b.event.arguments["event"] == "9")
        #expect(b.event.arguments["cause_event"] == "8")
        let bind = try #require(exported.perfetto.slices(named: "bind closure at View.swift:30").first)
        #expect(bind.event.arguments["subscription"] == "4")
        #expect(bind.event.arguments["scope"] == "9")
        #expect(bind.isInstant)
    }

    @Test("binds, unbinds and releases are instants; findings are instants on the findings track, at their event")
    func instantsAndFindings() throws {
        let exported = try Exported(ExportTraces.propagation())
        defer { exported.cleanUp() }
        let slices = exported.perfetto.slices()

        let release = try #require(slices.first { $0.event.category == "release" })
        #expect(release.isInstant)
        #expect(release.event.name == "release 'd' (String) at Model.swift:4")
        let findingsTrack = try #require(exported.perfetto.track(named: "findings"))
        let findings = slices.filter { $0.event.track == findingsTrack }
        #expect(findings.map(\.event.name) == ["leaked-subscription"])
        let finding = try #require(findings.first)
        #expect(finding.isInstant)
        #expect(finding.event.arguments["site"] == "App/View.swift:30")
        let at = try #require(finding.event.arguments["event"].flatMap { UInt64($0) })
        let event = try #require(try TraceReader(path: exported.trace).readAll().first { $0.sequence == at })
        #expect(finding.event.time == event.time)
        #expect(exported.summary.findings == 1)
    }

    @Test("an update delivering to a binding made on another thread, and a scope used on another, are flows")
    func flows() throws {
        let exported = try Exported(ExportTraces.twoThreads())
        defer { exported.cleanUp() }
        let timeline = exported.perfetto
        let main = try #require(timeline.track(named: "main"))
        let worker = try #require(timeline.track(named: "worker"))

        let bind = try #require(timeline.events.first { $0.category == "bind" })
        #expect(bind.track == main)
        let update = try #require(timeline.events.first { $0.name.hasPrefix("update 'query'") })
        #expect(update.track == worker)
        #expect(update.flowsIn == bind.flowsOut)
        #expect(update.flowsIn.count == 1)
        let scope = try #require(timeline.events.first { $0.name == "scope 'search'" })
        let mark = try #require(timeline.events.first { $0.name == "mark 'loaded'" })
        #expect(mark.track == worker)
        #expect(mark.flowsIn == scope.flowsOut)
        // Every flow that ends began on another track, no later.
        for event in timeline.events {
            for flow in event.flowsIn {
                let source = try #require(timeline.events.first { $0.flowsOut.contains(flow) }, "flow \(flow) begins")
                #expect(source.track != event.track)
                #expect(source.time <= event.time)
            }
        }
        #expect(timeline.events.flatMap(\.flowsIn).count == 2)
    }

    @Test("past the interning limit, new names are written in full and every event keeps its name")
    func internLimit() throws {
        var trace = TraceWriter(minor: 0)
        trace.thread(1, name: "main")
        // Each Output brings two new names: its creation and its update.
        let outputs = UInt64(PerfettoTraceWriter.maximumInternedNames / 2 + 100)
        for output in 1...outputs {
            trace.event(ExportTraces.created(output, label: "n\(output)", line: 1))
            trace.event(ExportTraces.update(output))
        }
        trace.end()
        let exported = try Exported(trace.bytes)
        defer { exported.cleanUp() }

        let updates = exported.perfetto.events.filter { $0.category == "update" }

        #expect(updates.count == Int(outputs))
        for (index, update) in updates.enumerated() {
            #expect(update.name == "update 'n\(index + 1)' (String) at Model.swift:1")
        }
        #expect(updates.first?.isNameLiteral == false)
        #expect(updates.last?.isNameLiteral == true)
    }

    @Test("a closure that unbinds itself keeps its name, and its unbind is drawn inside it")
    func selfUnbinding() throws {
        var trace = TraceWriter(minor: 0)
        trace.thread(1, name: "main")
        trace.event(ExportTraces.created(1, label: "once", line: 1))
        trace.event(ExportTraces.bound(1, to: 1, line: 10))
        let update = trace.event(ExportTraces.update(1))
        trace.event(
            .unbound(subscription: 1, reason: .unsubscribe, cause: TraceCause(subscription: 1, event: update)))
        trace.end()
        let exported = try Exported(trace.bytes)
        defer { exported.cleanUp() }

        let unbind = try #require(exported.perfetto.slices().first { $0.event.category == "unbind" })

        #expect(unbind.ancestors == ["update 'once' (String) at Model.swift:1", "closure bound at View.swift:10"])
        #expect(unbind.event.name == "unbind closure bound at View.swift:10")
    }
}
