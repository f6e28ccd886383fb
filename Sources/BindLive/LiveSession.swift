#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Every trace a `serve` shows: one file, or each trace file of a directory, including those that
/// appear while it runs.
///
/// Not thread-safe: one thread polls it (the server's reader thread) and hands the messages on.
package final class LiveSession {
    /// The trace file or directory given.
    package let source: String
    package let isDirectory: Bool
    package let follows: Bool
    package let limits: LiveLimits
    /// Followed traces, in the order they were found (a page numbers them so).
    package private(set) var followers: [TraceFollower] = []
    private var versions: [UInt64] = []
    private var lastScan = -1.0

    package init(source: String, follows: Bool, limits: LiveLimits = LiveLimits()) {
        self.source = source
        self.follows = follows
        self.limits = limits
        var status = stat()
        isDirectory = stat(source, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        if !isDirectory { followers = [TraceFollower(path: source, follows: follows, limits: limits)] }
        versions = followers.map { _ in UInt64.max }
    }

    /// Reads what every trace gained; returns the messages of the traces that changed
    /// (``LiveMessage/state(of:index:name:)``), by trace index.
    package func poll(now: Double) -> [(index: Int, message: String)] {
        if isDirectory && (now - lastScan >= 0.25 || lastScan < 0) {
            lastScan = now
            scan()
        }
        var changed: [(Int, String)] = []
        for (index, follower) in followers.enumerated() {
            follower.poll(now: now)
            if follower.version != versions[index] {
                versions[index] = follower.version
                changed.append((index, message(index)))
            }
        }
        return changed
    }

    /// The current state of trace `index`, for a page that just connected.
    package func message(_ index: Int) -> String {
        LiveMessage.state(of: followers[index], index: index, name: Self.fileName(followers[index].path))
    }

    /// Events read over every trace and run.
    package var totalEvents: UInt64 { followers.reduce(0) { $0 &+ $1.totalEvents } }

    /// Adds the directory's trace files not followed yet (`*.trace`), the newest `limits.traces` at most.
    private func scan() {
        guard let directory = opendir(source) else { return }
        defer { closedir(directory) }
        let known = Set(followers.map(\.path))
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard name.hasSuffix(".trace"), !name.hasPrefix(".") else { continue }
            let path = source.hasSuffix("/") ? source + name : source + "/" + name
            if !known.contains(path) { found.append(path) }
        }
        for path in found.sorted() where followers.count < limits.traces {
            followers.append(TraceFollower(path: path, follows: follows, limits: limits))
            versions.append(UInt64.max)
        }
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
