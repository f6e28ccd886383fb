@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Reads one trace file while its process writes it, and keeps what a live page shows of it.
///
/// Each ``poll(now:)`` reads whatever whole records the file gained since the last one (a record not yet
/// whole waits for the next poll) into a ``Replay`` and a bounded window of the newest events. The
/// replay keeps only what is alive, so memory follows the app's live graph, not the trace's length.
/// A file whose first bytes change (another run recorded to the same path) starts a new run; a file
/// with an end record, or one that stopped growing while the process named in its `writer` record is
/// gone, has ended.
/// - Complexity: each poll O(new events); memory O(live Outputs and subscriptions + ``LiveLimits``).
package final class TraceFollower {
    /// Where the trace is read from.
    package let path: String
    /// Keep reading as the file grows (`--follow`); otherwise read what is there once, to its end.
    package let follows: Bool
    package let limits: LiveLimits
    /// How the trace stands: waiting for it, following it, or ended (and how).
    package private(set) var status: LiveStatus = .waiting
    /// 1 for the first recording read from the path; one more each time another run starts on it.
    package private(set) var run = 0
    /// Events read in this run.
    package private(set) var events: UInt64 = 0
    /// Events read over every run: what `serve` reports it has followed.
    package private(set) var totalEvents: UInt64 = 0
    /// The newest events, oldest first (at most ``LiveLimits/recentEvents``).
    package private(set) var recent: RecentEvents
    /// The findings as of the last scope that ended (or the end of the trace).
    package private(set) var findings: [Finding] = []
    /// Bumped whenever anything a page shows changed.
    package private(set) var version: UInt64 = 0
    /// Problems that did not stop reading (from the reader), newest last, at most 20.
    package private(set) var warnings: [String] = []

    private var reader: TraceReader?
    private(set) var replay = Replay()
    private var batch = EventBatch()
    private var strings: [String] = [""]
    /// The file's first bytes as last seen: another run on the same path rewrites them (its `writer` record).
    private var prefix: [UInt8] = []
    private var lastGrowth = 0.0
    private var lastBytes = 0
    private var scopeEnded = false
    private var lastJudged = 0.0

    package init(path: String, follows: Bool, limits: LiveLimits = LiveLimits()) {
        self.path = path
        self.follows = follows
        self.limits = limits
        recent = RecentEvents(capacity: limits.recentEvents)
    }

    /// The live graph right now (Outputs and subscriptions alive, edges).
    package func snapshot() -> GraphState { replay.snapshot() }

    /// For a flight recording (`BIND_TRACE_LIMIT`), the number of the segment being read: each
    /// segment takes the path in turn, and is followed as another run would be.
    package var segment: UInt64? { reader?.window?.segment }

    /// The sentence the page shows: the status, and for a flight recording's segment what it holds.
    package var sentence: String {
        guard let segment else { return status.sentence }
        return status.sentence
            + "; segment \(segment) of a flight recording (BIND_TRACE_LIMIT): what came before it is in the "
            + "segment before or dropped"
    }

    /// Counters of this run so far.
    package var counters: LiveCounters {
        LiveCounters(
            events: events, liveOutputs: replay.liveOutputCount, boundSubscriptions: replay.boundSubscriptionCount,
            findings: findings.count)
    }

    /// Reads what the file gained; `now` is seconds on a monotonic clock. Returns whether anything changed.
    @discardableResult
    package func poll(now: Double) -> Bool {
        let before = version
        if case .ended = status, !follows { return false }
        if follows, reader != nil, restarted() { startRun(now: now) }
        if case .ended(.writerGone) = status, fileSize() > lastBytes {
            // It grew after all (its writer's id belongs to another process now): read on.
            status = .following
        }
        if reader == nil { open(now: now) }
        guard let reader, case .following = status else { return version != before }
        readAvailable(reader, now: now)
        if follows, case .following = status { checkWriter(now: now) }
        return version != before
    }

    // MARK: - Runs

    private func open(now: Double) {
        let opened: TraceReader
        do {
            opened = try TraceReader(path: path)
        } catch .cannotOpen, .truncatedHeader {
            // Not there yet, or its header not yet whole: look again at the next poll.
            return
        } catch {
            end(.unreadable("\(error)"))
            return
        }
        opened.follows = follows
        reader = opened
        replay = Replay(options: AnalysisOptions(), reading: opened)
        strings = [""]
        run += 1
        events = 0
        recent.removeAll()
        findings = []
        prefix = []
        lastGrowth = now
        lastBytes = 0
        status = .following
        version += 1
    }

    private func startRun(now: Double) {
        reader = nil
        open(now: now)
    }

    /// Whether another run rewrote the file: its first bytes changed, or it is shorter than what was read.
    private func restarted() -> Bool {
        let descriptor = openForReading(path)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var current = [UInt8](repeating: 0, count: 64)
        let got = current.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 64, 0) }
        guard got >= 0 else { return false }
        current.removeSubrange(got...)
        let common = min(current.count, prefix.count)
        if current[..<common] != prefix[..<common] { return true }
        if current.count < prefix.count { return true }
        var status = stat()
        if fstat(descriptor, &status) == 0, let reader, Int(status.st_size) < reader.bytesRead { return true }
        prefix = current
        return false
    }

    private func fileSize() -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    // MARK: - Reading

    private func readAvailable(_ reader: TraceReader, now: Double) {
        var read: UInt64 = 0
        repeat {
            reader.read(into: &batch)
            if !batch.strings.isEmpty { strings += batch.strings }
            replay.take(batch)
            for index in 0..<batch.count {
                replay.apply(batch, at: index)
                if batch.events[index].tag == .scopeEnd { scopeEnded = true }
            }
            recent.take(batch, strings: strings, replay: replay)
            read &+= UInt64(batch.count)
            if let failure = batch.failure {
                end(.unreadable("\(failure)"))
                return
            }
            // One poll reads at most this many events, so a page hears from a fast writer at least every poll.
        } while !batch.isLast && !reader.caughtUp && read < limits.eventsPerPoll
        if read > 0 || reader.bytesRead != lastBytes {
            events &+= read
            totalEvents &+= read
            lastBytes = reader.bytesRead
            lastGrowth = now
            version += 1
        }
        if prefix.count < 64 { _ = restarted() }
        if reader.isComplete {
            judge()
            end(.finished)
        } else if batch.isLast {
            judge()
            end(.stopped)
        } else if scopeEnded && now - lastJudged >= limits.judgeInterval {
            // Findings are judged when a scope ends: at most every `judgeInterval`, however many end.
            scopeEnded = false
            lastJudged = now
            judge()
        }
        for warning in reader.warnings.suffix(20) where !warnings.contains("\(warning)") {
            warnings.append("\(warning)")
            if warnings.count > 20 { warnings.removeFirst() }
        }
    }

    private func judge() {
        let found = replay.findingsSoFar()
        if found != findings {
            findings = found
            version += 1
        }
    }

    /// A followed trace that stopped growing ends when the process that wrote it is gone.
    private func checkWriter(now: Double) {
        guard now - lastGrowth >= limits.quietBeforeWriterCheck else { return }
        guard let process = reader?.writer?.process, process > 0, process < UInt64(Int32.max) else { return }
        if !ProcessLiveness.isRunning(pid_t(process)) {
            judge()
            end(.writerGone(process: process))
        }
    }

    private func end(_ ending: LiveStatus.Ending) {
        status = .ended(ending)
        version += 1
    }
}

/// `open(2)` for reading, outside the follower (whose `open(now:)` would hide it).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}
