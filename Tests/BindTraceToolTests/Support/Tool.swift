import BindTraceTestSupport
import Foundation
import Testing

/// Runs the real `bind-trace` binary, found next to the test bundle (`.build/debug`,
/// `.build-tracing/debug`, or any scratch path), or at `BIND_TRACE_TOOL`.
enum Tool {
    typealias Run = ChildProcess.Run

    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["BIND_TRACE_TOOL"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        // The test bundle lives in the build directory, next to the products of the same build.
        var bundle = Bundle.main.bundleURL
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for start in [bundle, runner, URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()] {
            bundle = start
            for _ in 0..<4 {
                candidates.append(bundle.appendingPathComponent("bind-trace"))
                bundle.deleteLastPathComponent()
            }
        }
        // Last resort: the package's own build directories.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        #if Tracing
        let scratch = [".build-tracing", ".build"]
        #else
        let scratch = [".build", ".build-tracing"]
        #endif
        for directory in scratch {
            candidates.append(root.appendingPathComponent(directory).appendingPathComponent("debug/bind-trace"))
        }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(
            found, "bind-trace is built (swift build --product bind-trace); looked in \(candidates.map(\.path))")
    }

    /// Runs `bind-trace arguments…` and waits for it.
    static func run(_ arguments: String...) throws -> Run {
        try run(arguments)
    }

    static func run(_ arguments: [String]) throws -> Run {
        try ChildProcess.run(executable(), arguments)
    }
}

/// A trace file in a fresh temporary directory, removed by `cleanUp()`.
struct TemporaryTrace {
    let path: String

    init(_ bytes: [UInt8], name: String = "app.trace") throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bind-trace-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}
