import BindTraceModel

/// A reader that rides the replay's one pass over a trace (``TraceAnalyzer/replay(_:into:watcher:readAhead:progress:)``):
/// shown every batch before its events, and every event just before and just after the replay applies
/// it, with the replay's state at that moment to read (never to change).
///
/// `bind-trace diff`'s per-site counts (``SiteTally``) are one: they need the replay's view of each
/// event (which Output an update is of, how deep it is nested) and must not read the trace a second time.
package protocol ReplayWatcher: AnyObject {
    /// The batch whose events come next (its strings are the replay's already).
    func take(_ batch: borrowing EventBatch)
    /// The event at `index` of `batch`, before the replay applies it.
    func willApply(_ batch: borrowing EventBatch, at index: Int, in replay: Replay)
    /// The event at `index` of `batch`, right after the replay applied it.
    func didApply(_ batch: borrowing EventBatch, at index: Int, in replay: Replay)
}

/// The watcher of a replay no one watches: its calls compile to nothing.
final class UnwatchedReplay: ReplayWatcher {
    @inline(__always) func take(_ batch: borrowing EventBatch) {}
    @inline(__always) func willApply(_ batch: borrowing EventBatch, at index: Int, in replay: Replay) {}
    @inline(__always) func didApply(_ batch: borrowing EventBatch, at index: Int, in replay: Replay) {}
}
