import BindTraceTestSupport
import Foundation
import Testing

/// SignInSample (the program `make demo` traces), run by the instrumented build with
/// `BIND_TRACE_VALUES=1`: a real trace, recorded as a user records one. Each test records its own.
struct RecordedSample {
    /// Whether these tests run in the instrumented build (the only one whose sample records).
    static var isRecordable: Bool {
        #if Tracing
        true
        #else
        false
        #endif
    }

    let directory: URL
    let path: String

    init() throws {
        let sample = try Tool.executable().deletingLastPathComponent().appendingPathComponent("SignInSample")
        try #require(
            FileManager.default.isExecutableFile(atPath: sample.path),
            "SignInSample is built next to bind-trace (swift build --traits Tracing --product SignInSample)")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bind-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("signin.trace").path
        let run = try ChildProcess.run(sample, [], environment: ["BIND_TRACE": path, "BIND_TRACE_VALUES": "1"])
        try #require(run.status == 0, "SignInSample: \(run.standardError)")
        try #require(FileManager.default.fileExists(atPath: path), "SignInSample wrote \(path)")
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }

    /// `bind-trace dump`'s events, one object each.
    func events() throws -> [[String: Any]] {
        let run = try Tool.run("dump", path)
        try #require(run.status == 0, "\(run.standardError)")
        return try run.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// The ids of the Outputs whose last label is `label` (at creation or by `.labeled()`).
    static func outputs(labelled label: String, in events: [[String: Any]]) -> Set<Int> {
        var labels: [Int: String] = [:]
        for event in events {
            guard let output = event["output"] as? Int else { continue }
            switch event["event"] as? String {
            case "outputCreated": labels[output] = event["label"] as? String
            case "labeled": labels[output] = event["label"] as? String
            default: break
            }
        }
        return Set(labels.filter { $0.value == label }.keys)
    }

    /// The sequence numbers of the updates and fires of `outputs`, in order.
    static func updates(of outputs: Set<Int>, in events: [[String: Any]]) -> [Int] {
        events.filter { event in
            ["updated", "fired"].contains(event["event"] as? String ?? "")
                && (event["output"] as? Int).map(outputs.contains) == true
        }.compactMap { $0["seq"] as? Int }
    }
}

/// The schemas in docs/schemas/.
enum Schemas {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/schemas")

    static func path(_ name: String) -> String { directory.appendingPathComponent("\(name).schema.json").path }

    /// Every schema's name (`why` for `why.schema.json`).
    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".schema.json") }
            .map { String($0.dropLast(".schema.json".count)) }.sorted()
    }
}
