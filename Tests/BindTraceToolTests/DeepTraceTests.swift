import Foundation
import Testing

/// A causal chain `depth` deep: each update is caused by the subscription on the Output before it.
func deepChainTrace(depth: Int) -> [UInt8] {
    var writer = TraceFileWriter()
    writer.thread(1)
    for id in 1...UInt64(depth) {
        writer.output(id, line: 3)
        writer.bind(id, to: id, line: 4)
    }
    var previous = writer.update(1)
    for id in 2...UInt64(depth) { previous = writer.update(id, cause: (id - 1, previous)) }
    writer.end()
    return writer.bytes
}

@Suite("bind-trace on deep and wide traces: output bounded by the events, not their square")
struct DeepTraceTests {
    @Test("replay of a 3,000-deep causal chain indents to a fixed depth and says how deep each line is")
    func deepReplay() throws {
        // BIND_DEEP_CHAIN=100000 tries the depth docs/hardening.md quotes.
        let depth = ProcessInfo.processInfo.environment["BIND_DEEP_CHAIN"].flatMap { Int($0) } ?? 3_000
        let trace = try TemporaryTrace(deepChainTrace(depth: depth))
        defer { trace.cleanUp() }

        let run = try Tool.run("replay", trace.path)

        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        let longest = lines.map { $0.utf8.count }.max() ?? 0
        #expect(longest < 300, "the longest line has \(longest) bytes")
        let deepest = "… depth \(StoryNumbers.grouped(depth - 1)) update"
        #expect(lines.contains { $0.contains(deepest) }, "the deepest line names its depth")
        #expect(run.standardOutput.utf8.count < depth * 3 * 300)
    }
}

/// `2999` as `2,999`, as the tool prints it.
enum StoryNumbers {
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
