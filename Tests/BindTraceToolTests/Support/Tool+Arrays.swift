import Foundation

extension Tool {
    /// Runs `bind-trace` with `arguments` given as an array, in `directory` when given.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read before waiting: a full pipe would block the tool.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
