import Foundation

/// Runs a program the tests built (`bind-trace`, a fixture) and collects what it printed.
package enum ChildProcess {
    /// How a run ended and what it printed.
    package struct Run: Sendable {
        package let status: Int32
        package let standardOutput: String
        package let standardError: String
    }

    /// Runs `executable` with `arguments` and waits for it. Both pipes are drained at once (standard
    /// error on another thread), so a program that fills one while the other is read never blocks.
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errorData = ErrorBytes()
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errorData.set(error.fileHandleForReading.readDataToEndOfFile())
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.get(), as: UTF8.self))
    }

    /// Standard error, handed from its reading thread under a lock.
    private final class ErrorBytes: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }
}
