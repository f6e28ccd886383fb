/// How a followed trace stands.
package enum LiveStatus: Equatable, Sendable {
    /// Its file is not there yet (or its header not yet whole).
    case waiting
    /// Being read as it grows.
    case following
    case ended(Ending)

    /// Why a trace ended.
    package enum Ending: Equatable, Sendable {
        /// Its end record: the recording stopped normally.
        case finished
        /// Read to its end without following (`serve` without `--follow`), no end record.
        case stopped
        /// No end record, the file stopped growing, and the process in its `writer` record is gone:
        /// the app crashed or was killed.
        case writerGone(process: UInt64)
        /// The trace could not be read on (corruption, an unreadable file).
        case unreadable(String)
    }

    /// A word for the page's badge: `waiting`, `following`, `ended`.
    package var word: String {
        switch self {
        case .waiting: "waiting"
        case .following: "following"
        case .ended: "ended"
        }
    }

    /// The sentence the page shows.
    package var sentence: String {
        switch self {
        case .waiting: "waiting for the trace file"
        case .following: "following: the app is writing this trace"
        case .ended(.finished): "ended: the recording stopped normally (end record)"
        case .ended(.stopped): "read to its end (not following)"
        case .ended(.writerGone(let process)):
            "ended: the app (process \(process)) is gone without an end record: it crashed or was killed"
        case .ended(.unreadable(let reason)): "ended: the trace cannot be read on: \(reason)"
        }
    }
}

/// The figures a live page shows for one trace.
package struct LiveCounters: Equatable, Sendable {
    package var events: UInt64
    package var liveOutputs: Int
    package var boundSubscriptions: Int
    package var findings: Int
}

/// What a live view keeps and how often it looks: the bounds that keep memory flat.
package struct LiveLimits: Sendable {
    /// Newest events kept (and shown) per trace.
    package var recentEvents = 100
    /// Outputs a page is sent per trace: the newest alive ones (the counters count them all).
    package var outputs = 300
    /// Edges a page is sent per trace (between the Outputs sent).
    package var edges = 600
    /// Findings a page is sent per trace.
    package var findings = 100
    /// At most this many events are read per poll, so every page hears from a fast writer each poll.
    package var eventsPerPoll: UInt64 = 2_000_000
    /// Findings are judged again at most this often (seconds) while scopes keep ending.
    package var judgeInterval = 0.2
    /// A trace that has not grown for this long (seconds) is checked for its writer.
    package var quietBeforeWriterCheck = 0.5
    /// Traces a directory follows at once (the newest); older ones are dropped from the page.
    package var traces = 16

    package init() {}
}
