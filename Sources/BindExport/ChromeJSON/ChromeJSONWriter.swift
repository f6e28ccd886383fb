import BindText

/// Writes a timeline as Chrome trace-event JSON (`{"traceEvents":[…]}`), for tools that read only
/// JSON, streamed to a file one event per line.
///
/// Slices are `B`/`E` events, instants `i` (thread-scoped), thread and process names `M` events;
/// flows use the "v2" form Perfetto reads exactly: top-level `bind_id` with `flow_out` on the source
/// and `flow_in` on the destination. JSON binds one flow per event: an event with several keeps its
/// incoming one, else its first outgoing one, and an instant with a flow is written as a `X` of
/// zero duration (flows bind to slices). Every string goes through the one JSON writer
/// (``JSONValue``), which escapes what a trace may hold.
final class ChromeJSONWriter: TimelineSink {
    private let output: AtomicFileStream
    private var eventCount = 0
    private var namedGroups: Set<TimelineTrack.Group> = []

    init(output: AtomicFileStream) throws(TimelineWriteError) {
        self.output = output
        try emit("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", isEvent: false)
    }

    /// The JSON process id of a track's group.
    private static func processID(_ group: TimelineTrack.Group) -> UInt64 {
        group == .process ? 1 : UInt64(group.rawValue)
    }

    private static func groupName(_ group: TimelineTrack.Group) -> String? {
        switch group {
        case .scopes: "scopes"
        case .findings: "findings"
        case .process, .threads: nil
        }
    }

    func declare(_ declaration: TrackDeclaration) throws(TimelineWriteError) {
        let track = declaration.track
        let pid = Self.processID(track.group)
        if case .process = declaration.role {
            try metadata("process_name", pid: pid, tid: 0, name: declaration.name)
            return
        }
        if let groupName = Self.groupName(track.group), namedGroups.insert(track.group).inserted {
            try metadata("process_name", pid: pid, tid: 0, name: groupName)
        }
        try metadata("thread_name", pid: pid, tid: track.lane, name: declaration.name)
    }

    func write(_ event: TimelineEvent) throws(TimelineWriteError) {
        let flow: (id: UInt64, isIncoming: Bool)? =
            event.flowsIn.first.map { ($0, true) } ?? event.flowsOut.first.map { ($0, false) }
        let phase: String
        switch event.phase {
        case .begin: phase = "B"
        case .end: phase = "E"
        case .instant: phase = flow == nil ? "i" : "X"
        }
        var text = "{\"ph\":\"\(phase)\",\"ts\":\(Self.microseconds(event.time))"
        text += ",\"pid\":\(Self.processID(event.track.group)),\"tid\":\(event.track.lane)"
        if event.phase == .instant { text += flow == nil ? ",\"s\":\"t\"" : ",\"dur\":0" }
        if event.phase != .end {
            text += ",\"name\":" + JSONValue.string(event.name).compactText
            if !event.category.isEmpty { text += ",\"cat\":" + JSONValue.string(event.category).compactText }
            if !event.annotations.isEmpty { text += ",\"args\":" + Self.arguments(event.annotations).compactText }
        }
        if let flow {
            text += ",\"bind_id\":\"0x\(String(flow.id, radix: 16))\""
            text += flow.isIncoming ? ",\"flow_in\":true" : ",\"flow_out\":true"
        }
        text += "}"
        try emit(text, isEvent: true)
    }

    func finish() throws(TimelineWriteError) {
        try emit("\n]}\n", isEvent: false)
        do {
            try output.commit()
        } catch {
            throw .unwritableOutput(error)
        }
    }

    /// `1234567` ns as `1234.567` (µs, the format's unit), exact.
    static func microseconds(_ nanoseconds: UInt64) -> String {
        let fraction = String(nanoseconds % 1000)
        return "\(nanoseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private static func arguments(_ annotations: [TimelineAnnotation]) -> JSONValue {
        .object(
            annotations.map { annotation in
                switch annotation.value {
                case .text(let text): (annotation.name, .string(text))
                case .number(let number): (annotation.name, .uint(number))
                }
            })
    }

    private func metadata(_ kind: String, pid: UInt64, tid: UInt64, name: String) throws(TimelineWriteError) {
        let arguments = JSONValue.object([("name", .string(name))]).compactText
        try emit(
            "{\"ph\":\"M\",\"name\":\"\(kind)\",\"pid\":\(pid),\"tid\":\(tid),\"args\":\(arguments)}", isEvent: true)
    }

    private func emit(_ text: String, isEvent: Bool) throws(TimelineWriteError) {
        do {
            if isEvent {
                if eventCount > 0 { try output.write(",\n") }
                eventCount += 1
            }
            try output.write(text)
        } catch {
            throw .unwritableOutput(error)
        }
    }
}
