@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// The names a program's trace gives its threads: from what the program knows (its own names, its
/// queues' labels) before the kernel's 15-byte copy, never the program's name on every thread nobody
/// named, and never one name for two threads.
@Suite("Thread names in a program's trace", .requiresTracing)
struct ThreadNameTests {
    /// The threads that bound the Outputs labelled `label`, in order, and their names in the trace.
    private struct Threads {
        var numbers: [String: [UInt32]] = [:]
        var names: [UInt32: String] = [:]

        func names(of label: String) -> [String?] { (numbers[label] ?? []).map { names[$0] } }
    }

    private func threads(of mode: String) throws -> Threads {
        let path = temporaryTracePath()
        defer { unlink(path) }
        let run = try ChildProcess.run(
            productsDirectory().appendingPathComponent("TraceFixture"), ["1", mode], environment: ["BIND_TRACE": path])
        #expect(run.status == 0, "\(run.standardError)")
        let reader = try TraceReader(path: path)
        var threads = Threads()
        for event in try reader.readAll() {
            switch event.kind {
            case .outputCreated(let creation):
                if let label = creation.label { threads.numbers[label, default: []].append(event.thread) }
            case .labeled(_, let label): threads.numbers[label, default: []].append(event.thread)
            default: break
            }
        }
        threads.names = reader.threadNames
        return threads
    }

    @Test(
        "the main thread, the app's own names, whole queue labels; threads nobody named go by their number",
        .hangGuard)
    func namesFromTheProgram() throws {
        let threads = try threads(of: "threads")
        #expect(threads.names(of: "main") == ["TraceFixture"])
        // Both would read "TraceFixture", the name every thread inherits on Linux: they get none.
        let unnamed = threads.numbers["unnamed"] ?? []
        #expect(Set(unnamed).count == 2, "two threads: \(unnamed)")
        #expect(threads.names(of: "unnamed") == [nil, nil], "\(threads.names)")
        // libdispatch's workers: the queue's whole label, not the kernel's "oot.default-qos".
        #expect(threads.names(of: "global") == ["com.apple.root.default-qos"], "\(threads.names)")
        #expect(threads.names(of: "serial") == ["com.example.bind.network"], "\(threads.names)")
    }

    @Test("two threads the app gave one name are told apart by the second's number", .hangGuard)
    func sameNameTwice() throws {
        let threads = try threads(of: "threads")
        let workers = try #require(threads.numbers["worker"])
        #expect(Set(workers).count == 2, "two threads: \(workers)")
        #expect(threads.names(of: "worker") == ["worker", "worker #\(workers.last ?? 0)"], "\(threads.names)")
        let named = Array(threads.names.values)
        #expect(Set(named).count == named.count, "no two threads share a name: \(threads.names)")
    }
}
