import ArgumentParser
import BindTraceModel

/// `bind-trace dump FILE`: every event as one JSON object per line.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print every event as JSON Lines (one object per line), for grep and jq.")

    @Argument(help: "The trace file to read.")
    var file: String

    func run() throws {
        do {
            let reader = try TraceReader(path: file)
            while let event = try reader.next() { StandardOutput.shared.jsonLine(JSONLines.line(for: event)) }
            for warning in reader.warnings { StandardError.write("bind-trace: \(file): warning: \(warning)") }
        } catch {
            throw ToolFailure(path: file, error)
        }
    }
}
