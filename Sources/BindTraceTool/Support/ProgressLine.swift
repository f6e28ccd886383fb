import ArgumentParser
import BindText
import BindTraceModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// When to show progress.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    /// On a terminal only: one line updated in place on standard error.
    case auto
    /// Always: in place on a terminal, else a line every few seconds (for CI logs that want it).
    case always
    case never
}

/// One line on standard error saying how far reading a big trace has got:
/// `bind-trace: app.trace: 412 MB of 1.0 GB, 31,204,117 events, 8 s`.
///
/// Nothing is shown for the first second (unless asked for with `--progress always`), so small traces
/// stay silent. On a terminal the line is
/// rewritten in place and erased at the end; elsewhere (asked for with `--progress always`) a new
/// line is written every 5 seconds, and one with the final figures at the end.
final class ProgressLine {
    private let label: String
    private let totalBytes: Int
    private let fileBytes: Int
    private let enabled: Bool
    private let inPlace: Bool
    /// Asked for: shown from the first event, not only after the first second.
    private let immediate: Bool
    private let start = ProgressLine.now()
    private var lastShown: Double
    private var shownInPlace = false
    private var shownOnce = false
    private var countdown = 0
    private var latest: (bytes: Int, events: UInt64) = (0, 0)
    /// The figures of the line shown last: the final line is not written again when nothing moved.
    private var shown: (bytes: Int, events: UInt64)?

    /// - Parameters:
    ///   - path: the trace; its size is the total.
    ///   - passes: how many times the trace is read.
    init(path: String, mode: ProgressMode, passes: Int = 1) {
        label = path
        var status = stat()
        let size = stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
        fileBytes = size
        totalBytes = size * passes
        let terminal = CrashGuard.standardErrorIsTerminal
        enabled = mode == .always || (mode == .auto && terminal)
        inPlace = terminal
        immediate = mode == .always
        lastShown = start
    }

    /// Called once per event or once per batch of events: cheap (a countdown of events) until it
    /// is time to look at the clock.
    /// - Parameters:
    ///   - pass: which reading of the trace this is (1 or 2).
    ///   - bytesRead: how far this pass has read.
    ///   - events: events read so far in all passes.
    @inline(__always)
    func update(pass: Int = 1, bytesRead: Int, events: UInt64) {
        guard enabled else { return }
        countdown -= Int(clamping: events &- latest.events)
        latest = (fileBytes * (pass - 1) + bytesRead, events)
        if countdown > 0 { return }
        countdown = 1 << 15
        show(bytes: latest.bytes, events: latest.events, final: false)
    }

    /// Erases the line on a terminal; elsewhere, when asked for, writes the final figures.
    func finish() {
        if shownInPlace {
            StandardError.writeRaw("\r\u{1B}[K")
            shownInPlace = false
        } else if enabled && !inPlace, shown.map({ $0 != latest }) ?? true {
            show(bytes: latest.bytes, events: latest.events, final: true)
        }
    }

    private func show(bytes: Int, events: UInt64, final: Bool) {
        let now = Self.now()
        let elapsed = now - start
        let due = shownOnce ? now - lastShown >= (inPlace ? 0.1 : 5) : (immediate || elapsed >= 1)
        guard final || due else { return }
        shownOnce = true
        shown = (bytes, events)
        lastShown = now
        var text = "bind-trace: \(label): \(Self.size(bytes))"
        if totalBytes > 0 { text += " of \(Self.size(totalBytes))" }
        text += ", \(StoryTeller.grouped(Int(clamping: events))) events, \(Int(elapsed)) s"
        if inPlace {
            StandardError.writeRaw("\r\u{1B}[K" + Escape.terminal(text))
            shownInPlace = true
        } else {
            StandardError.write(text)
        }
    }

    private static func size(_ bytes: Int) -> String {
        let value = Double(bytes)
        if value >= 1e9 { return "\((value / 1e8).rounded() / 10) GB" }
        if value >= 1e6 { return "\(Int((value / 1e6).rounded())) MB" }
        return "\(Int((value / 1e3).rounded())) KB"
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
