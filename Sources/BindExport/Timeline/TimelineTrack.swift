/// Where a timeline event is drawn: the process, one of its threads, a scope, or the findings.
///
/// The Perfetto writer names a track by its `uuid`; the Chrome JSON writer, which has no tracks, by
/// a (process, thread) pair: threads are threads of process 1, scopes pseudo-threads of process 2
/// ("scopes"), the findings the one pseudo-thread of process 3 ("findings"). Each group numbers its
/// lanes from 1, so no trace can make two tracks share one.
struct TimelineTrack: Hashable {
    enum Group: Int32 {
        case process = 0
        case threads = 1
        case scopes = 2
        case findings = 3
    }

    let uuid: UInt64
    let group: Group
    /// The thread number of the JSON form, within ``group``.
    let lane: UInt64

    static let process = TimelineTrack(uuid: 1, group: .process, lane: 0)
    static let findings = TimelineTrack(uuid: 2, group: .findings, lane: 1)
}

/// A track announced before its first event: its name and what it stands for.
struct TrackDeclaration {
    enum Role {
        /// The traced process (one trace is one process).
        case process
        /// A recording thread; `ordinal` is its place in the order threads were first seen (1, 2, …).
        case thread(ordinal: Int32)
        /// A `BindTrace.scope`, under its parent scope's track (or the process's).
        case scope(parent: TimelineTrack)
        /// The findings of the trace.
        case findings
    }

    let track: TimelineTrack
    let name: String
    let role: Role
}

/// A key and value shown with an event (Perfetto's debug annotations, JSON's `args`).
struct TimelineAnnotation {
    enum Value {
        case text(String)
        case number(UInt64)
    }

    let name: String
    let value: Value

    init(_ name: String, _ text: String) {
        self.name = name
        value = .text(text)
    }

    init(_ name: String, _ number: UInt64) {
        self.name = name
        value = .number(number)
    }
}

/// One thing drawn on a track: a slice's begin or end, or an instant.
struct TimelineEvent {
    enum Phase {
        case begin, end, instant
    }

    var phase: Phase
    /// Nanoseconds since the trace started: the trace's own clock.
    var time: UInt64
    var track: TimelineTrack
    /// Empty for an end (a slice is named by its begin).
    var name: String = ""
    var category: String = ""
    var annotations: [TimelineAnnotation] = []
    /// Flows that leave (or pass through) this event: an arrow starts here.
    var flowsOut: [UInt64] = []
    /// Flows that end at this event: an arrow ends here.
    var flowsIn: [UInt64] = []
}

/// Receives a timeline as it is built, in file order: every track is declared before its first
/// event, and on each track the begins and ends are balanced and nested when ordered by time (file
/// order breaking ties). Events of different tracks, and an end relative to later events of other
/// tracks, may come out of time order: both Perfetto and the JSON importer sort by time.
protocol TimelineSink: AnyObject {
    func declare(_ track: TrackDeclaration) throws(TimelineWriteError)
    func write(_ event: TimelineEvent) throws(TimelineWriteError)
    /// Called once, after the last event.
    func finish() throws(TimelineWriteError)
}
