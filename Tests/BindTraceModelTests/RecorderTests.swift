@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@testable import Bind

extension TraceFileTests {
    @Suite("The recorder loses nothing to captures", .requiresTracing)
    struct CaptureIsolationTests {
        private func released(_ id: UInt64, in events: [TraceEvent]) -> Bool {
            events.contains { if case .released(id) = $0.kind { true } else { false } }
        }

        private func outputID(labelled label: String, in events: [TraceEvent]) -> UInt64? {
            events.lazy.compactMap { event -> UInt64? in
                switch event.kind {
                case .outputCreated(let creation) where creation.label == label: creation.output
                case .labeled(let output, label): output
                default: nil
                }
            }.first
        }

        @Test("an Output created before a capture and released after it began has its release in the file")
        func releaseAfterCaptureReachesFile() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            try BindTrace.startRecording(toFile: path)
            var output: Output<Int>? = Output<Int>(value: 0).labeled("outlives a capture")
            output!.update(withValue: 1)
            let recording = BindTrace.capture("unrelated") {
                let other = Output<Int>(value: 0)
                other.update(withValue: 1)
            }
            output = nil
            _ = recording
            BindTrace.stopRecording()
            let events = try TraceReader(path: path).readAll()
            let id = try #require(outputID(labelled: "outlives a capture", in: events))
            #expect(released(id, in: events), "the file saw the Output, so it gets its release")
        }

        @Test("a release during overlapping captures reaches both, and the file")
        func releaseReachesEveryCapture() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            try BindTrace.startRecording(toFile: path)
            var output: Output<Int>? = Output<Int>(value: 0).labeled("seen by all")
            var inner: BindTrace.Recording?
            let outer = BindTrace.capture("outer") {
                output!.update(withValue: 1)
                inner = BindTrace.capture("inner") {
                    output!.update(withValue: 2)
                    output = nil
                }
            }
            BindTrace.stopRecording()
            for (name, events) in [
                ("file", try TraceReader(path: path).readAll()), ("outer", try #require(outer).events()),
                ("inner", try #require(inner).events()),
            ] {
                let id = try #require(outputID(labelled: "seen by all", in: events), "\(name)")
                #expect(released(id, in: events), "\(name) saw the Output and must see its release")
            }
        }

        @Test("a capture that never saw an Output still reads consistently when that Output is released")
        func releaseOfUnseenOutputIsConsistent() throws {
            var output: Output<Int>? = Output<Int>(value: 0).labeled("before")
            let warm = BindTrace.capture("warm") { output!.update(withValue: 1) }
            _ = warm
            let later = BindTrace.capture("later") { output = nil }
            let reader = try #require(later).reader()
            let events = try reader.readAll()
            // Whatever this capture holds of the Output, a release never comes before its creation.
            if let id = outputID(labelled: "before", in: events) {
                let created = events.firstIndex {
                    if case .outputCreated(let c) = $0.kind { c.output == id } else { false }
                }
                let release = events.firstIndex { if case .released(id) = $0.kind { true } else { false } }
                if let release { #expect(created.map { $0 < release } ?? false) }
            }
        }
    }

}

@Suite("BIND_TRACE patterns", .requiresTracing)
struct TracePatternTests {
    #if Tracing
    @Test("%p is the process id, %h the host name, %% a percent sign")
    func placeholders() {
        let pid = getpid()
        #expect(TraceFile.expand("/tmp/app-%p.trace") == "/tmp/app-\(pid).trace")
        #expect(!TraceFile.expand("/tmp/%h.trace").contains("%"))
        #expect(TraceFile.expand("/tmp/100%%-%p") == "/tmp/100%-\(pid)")
    }

    @Test("a directory means one file per process inside it, named after the executable")
    func directory() throws {
        let directory = NSTemporaryDirectory() + "bind-dir-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = TraceFile.expand(directory + "/")
        #expect(made.hasPrefix(directory + "/"))
        #expect(made.hasSuffix("-\(getpid()).trace"))
        #expect(FileManager.default.fileExists(atPath: directory), "a directory ending in / is created")
        #expect(TraceFile.expand(directory) == made, "an existing directory is used the same way")
    }

    @Test("a file another writer holds is left alone: the recording goes to a sibling named with the pid")
    func lockedFile() throws {
        let path = temporaryTracePath()
        let sibling = TraceFile.sibling(of: path)
        defer {
            unlink(path)
            unlink(sibling)
        }
        // Another writer: a lock on its own open file description, as another process would hold.
        let holder = open(path, O_WRONLY | O_CREAT, 0o644)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        #expect(write(holder, "theirs", 6) == 6)
        var file = try TraceFile(pattern: path)
        #expect(file.path == sibling)
        file.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs", "the other writer's file is untouched")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sibling)) == Data([4, 0]), "ours got its end record")
    }
    #endif  // Tracing: TraceFile and TraceStrings are the recorder's own
}

@Suite("Parallel captures", .requiresTracing)
struct ParallelCaptureTests {
    @Test("200 captures in parallel each see every release and unbind of their own, whatever the others do")
    func parallelCaptures() async throws {
        // Shared Outputs that live across every capture, updated and released by all of them.
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let recording = BindTrace.capture("case \(index)") {
                        var output: Output<Int>? = Output<Int>(value: 0).labeled("own \(index)")
                        let subscription = output!.bind { _ in }
                        for value in 1...20 { output!.update(withValue: value) }
                        subscription.unsubscribe()
                        let kept = output!.bind { _ in }
                        _ = kept
                        output = nil
                    }
                    let events = try ownEvents(of: try #require(recording))
                    var outputs: Set<UInt64> = []
                    var subscriptions: Set<UInt64> = []
                    for event in events {
                        switch event.kind {
                        case .outputCreated(let creation): outputs.insert(creation.output)
                        case .bound(let binding): subscriptions.insert(binding.subscription)
                        case .released(let output): outputs.remove(output)
                        case .unbound(let subscription, _, _): subscriptions.remove(subscription)
                        default: break
                        }
                    }
                    return outputs.count + subscriptions.count
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0, "an Output or subscription of a capture was left without its release or unbind")
    }
}

@Suite("Trace strings", .requiresTracing)
struct TraceStringsTests {
    #if Tracing
    /// More distinct files than the recent-file cache has slots, so slots are shared and replaced.
    private static let files: [StaticString] = [
        "A.swift", "B.swift", "C.swift", "D.swift", "E.swift", "F.swift", "G.swift", "H.swift", "I.swift",
        "J.swift", "K.swift", "L.swift", "M.swift", "N.swift", "O.swift", "P.swift", "Q.swift", "R.swift",
        "S.swift", "T.swift", "U.swift", "V.swift", "W.swift", "X.swift", "Y.swift", "Z.swift", "Aa.swift",
        "Ab.swift", "Ac.swift", "Ad.swift", "Ae.swift", "Af.swift", "Ag.swift", "Ah.swift", "Ai.swift",
        "Aj.swift", "Ak.swift", "Al.swift", "Am.swift", "An.swift", "Ao.swift", "Ap.swift", "Aq.swift",
        "Ar.swift", "As.swift", "At.swift", "Au.swift", "Av.swift", "Aw.swift", "Ax.swift", "Ay.swift",
        "Az.swift", "Ba.swift", "Bb.swift", "Bc.swift", "Bd.swift", "Be.swift", "Bf.swift", "Bg.swift",
        "Bh.swift", "Bi.swift", "Bj.swift", "Bk.swift", "Bl.swift", "Bm.swift", "Bn.swift", "Bo.swift",
        "Bp.swift", "Bq.swift", "Br.swift",
    ]

    @Test("a file keeps its id however files are interleaved, is defined once, and a reset starts again")
    func fileIDs() {
        var strings = TraceStrings()
        var defined: [UInt64: String] = [:]
        func id(_ file: StaticString) -> UInt64 {
            strings.id(of: file) { record in
                if case .string(let id, let utf8) = record {
                    #expect(defined[id] == nil, "string \(id) defined twice")
                    defined[id] = String(decoding: utf8, as: UTF8.self)
                }
            }
        }
        let first = Self.files.map(id)
        #expect(Set(first).count == Self.files.count)
        for round in 0..<5 {
            // Forwards, backwards and strided, so every slot sees several files come and go.
            let order = round.isMultiple(of: 2) ? Array(Self.files.indices) : Self.files.indices.reversed()
            for index in order where index % (round + 1) == 0 {
                #expect(id(Self.files[index]) == first[index])
            }
        }
        #expect(defined.count == Self.files.count)
        for (index, file) in Self.files.enumerated() { #expect(defined[first[index]] == "\(file)") }
        // A new stream defines its strings again, from id 1.
        strings.reset()
        defined = [:]
        #expect(id(Self.files[5]) == 1)
        #expect(defined == [1: "F.swift"])
    }
    #endif  // Tracing: TraceFile and TraceStrings are the recorder's own
}
