import Foundation
import Testing

/// An exported file read back, the same way for both formats: its tracks and its events in file
/// order, and the slices they make when each track is read as Perfetto reads it (by time, file order
/// breaking ties).
struct DrawnTimeline {
    enum Phase { case begin, end, instant }

    struct Track {
        var name: String
        /// Perfetto: `process`, `thread` or the parent's uuid; JSON: the process id.
        var kind: String
        var threadID: Int?
    }

    struct Event {
        var index: Int
        var time: UInt64
        var track: String
        var phase: Phase
        var name = ""
        var category = ""
        var arguments: [String: String] = [:]
        var flowsOut: [UInt64] = []
        var flowsIn: [UInt64] = []
        /// Perfetto: the name was written in full rather than as an interned id.
        var isNameLiteral = false
    }

    /// A slice or instant with its place in its track's nesting.
    struct Slice {
        var event: Event
        var end: UInt64
        var depth: Int
        /// The names of the slices it is inside, outermost first.
        var ancestors: [String]
        var isInstant: Bool
    }

    var tracks: [String: Track] = [:]
    var events: [Event] = []

    // MARK: Reading

    /// Reads a Perfetto file through `protoc --decode` with Perfetto's field numbers, after
    /// Perfetto's own schema has parsed it without an unknown field (``PerfettoSchema``).
    static func perfetto(_ path: String) throws -> DrawnTimeline {
        try PerfettoSchema.expectValid(path)
        let trace = try Protoc.decodeTrace(path)
        var timeline = DrawnTimeline()
        // The sequence's interned names, as Perfetto resolves them: defined before (or in) the
        // packet that uses them, never redefined.
        var interned: [String: [String: String]] = [:]
        for (index, packet) in trace.messages("packet").enumerated() {
            #expect(packet.number("trusted_packet_sequence_id") == 1)
            let flags = packet.number("sequence_flags") ?? 0
            #expect((flags & 1 != 0) == (index == 0), "only the first packet clears the incremental state")
            if let data = packet.message("interned_data") {
                for table in ["event_categories", "event_names", "debug_annotation_names"] {
                    for entry in data.messages(table) {
                        let id = try #require(entry.scalar("iid"))
                        #expect(interned[table]?[id] == nil, "\(table) \(id) is defined once")
                        interned[table, default: [:]][id] = entry.scalar("name")
                    }
                }
            }
            func resolve(_ table: String, _ id: String?) -> String? { id.flatMap { interned[table]?[$0] } }
            if let descriptor = packet.message("track_descriptor") {
                let uuid = try #require(descriptor.scalar("uuid"))
                var track = Track(name: descriptor.scalar("name") ?? "", kind: "")
                if let process = descriptor.message("process") {
                    track.kind = "process"
                    #expect(process.scalar("process_name") == track.name)
                } else if let thread = descriptor.message("thread") {
                    track.kind = "thread"
                    track.threadID = thread.scalar("tid").flatMap { Int($0) }
                    #expect(thread.scalar("thread_name") == track.name)
                    #expect(thread.scalar("pid") == "1")
                } else {
                    track.kind = try #require(descriptor.scalar("parent_uuid"))
                }
                #expect(timeline.tracks[uuid] == nil, "one descriptor per track")
                timeline.tracks[uuid] = track
            }
            if let trackEvent = packet.message("track_event") {
                let phase: Phase =
                    switch trackEvent.scalar("type") {
                    case "TYPE_SLICE_BEGIN": .begin
                    case "TYPE_SLICE_END": .end
                    default: .instant
                    }
                var event = Event(
                    index: index, time: try #require(packet.number("timestamp")),
                    track: try #require(trackEvent.scalar("track_uuid")), phase: phase)
                if trackEvent.scalar("name_iid") != nil || !trackEvent.scalars("category_iids").isEmpty {
                    #expect(flags & 2 != 0, "a packet using interned names says it needs them")
                }
                event.isNameLiteral = trackEvent.scalar("name") != nil
                event.name = trackEvent.scalar("name") ?? resolve("event_names", trackEvent.scalar("name_iid")) ?? ""
                event.category =
                    trackEvent.scalar("categories") ?? resolve("event_categories", trackEvent.scalar("category_iids"))
                    ?? ""
                for annotation in trackEvent.messages("debug_annotations") {
                    let name = try #require(
                        annotation.scalar("name") ?? resolve("debug_annotation_names", annotation.scalar("name_iid")))
                    event.arguments[name] = annotation.scalar("string_value") ?? annotation.scalar("uint_value")
                }
                event.flowsOut = trackEvent.scalars("flow_ids").compactMap { UInt64($0) }
                event.flowsIn = trackEvent.scalars("terminating_flow_ids").compactMap { UInt64($0) }
                timeline.events.append(event)
            }
        }
        return timeline
    }

    /// Reads a Chrome JSON file with Foundation's JSON parser.
    static func chromeJSON(_ path: String) throws -> DrawnTimeline {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        var timeline = DrawnTimeline()
        for (index, object) in events.enumerated() {
            let phase = try #require(object["ph"] as? String)
            let pid = try #require(object["pid"] as? Int)
            let tid = try #require(object["tid"] as? Int)
            let track = "\(pid)/\(tid)"
            if phase == "M" {
                let name = try #require((object["args"] as? [String: Any])?["name"] as? String)
                if object["name"] as? String == "thread_name" {
                    timeline.tracks[track] = Track(name: name, kind: "\(pid)", threadID: tid)
                } else {
                    timeline.tracks["\(pid)"] = Track(name: name, kind: "process")
                }
                continue
            }
            let micros = try #require(object["ts"] as? Double)
            var event = Event(
                index: index, time: UInt64((micros * 1000).rounded()), track: track,
                phase: phase == "B" ? .begin : phase == "E" ? .end : .instant)
            if phase == "X" { #expect(object["dur"] as? Int == 0, "an X is an instant with a flow") }
            event.name = object["name"] as? String ?? ""
            event.category = object["cat"] as? String ?? ""
            for (key, value) in object["args"] as? [String: Any] ?? [:] { event.arguments[key] = "\(value)" }
            if let bind = object["bind_id"] as? String, let id = UInt64(bind.dropFirst(2), radix: 16) {
                if object["flow_in"] as? Bool == true { event.flowsIn = [id] }
                if object["flow_out"] as? Bool == true { event.flowsOut = [id] }
            }
            timeline.events.append(event)
        }
        return timeline
    }

    // MARK: Reading it as Perfetto does

    /// Every slice and instant with its depth, each track read in time order; fails the test when a
    /// track's begins and ends do not balance.
    func slices() -> [Slice] {
        var result: [Slice] = []
        let byTrack = Dictionary(grouping: events, by: \.track)
        for (track, trackEvents) in byTrack {
            let ordered = trackEvents.sorted { ($0.time, $0.index) < ($1.time, $1.index) }
            var open: [(event: Event, slot: Int)] = []
            for event in ordered {
                switch event.phase {
                case .begin:
                    result.append(
                        Slice(
                            event: event, end: event.time, depth: open.count, ancestors: open.map(\.event.name),
                            isInstant: false))
                    open.append((event, result.count - 1))
                case .end:
                    guard let last = open.popLast() else {
                        Issue.record("track \(track): an end at \(event.time) with no slice open")
                        continue
                    }
                    result[last.slot].end = event.time
                case .instant:
                    result.append(
                        Slice(
                            event: event, end: event.time, depth: open.count, ancestors: open.map(\.event.name),
                            isInstant: true))
                }
            }
            #expect(open.isEmpty, "track \(track): \(open.map(\.event.name)) never end")
        }
        return result.sorted { $0.event.index < $1.event.index }
    }

    /// The drawn events named `prefix…`.
    func slices(named prefix: String) -> [Slice] { slices().filter { $0.event.name.hasPrefix(prefix) } }

    /// The track named `name`'s key.
    func track(named name: String) -> String? { tracks.first { $0.value.name == name }?.key }
}
