import ArgumentParser
import BindText
@_spi(Harness) import BindTraceModel

/// `bind-trace dump TRACE…`: every event as one JSON object per line.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print every event as JSON Lines (one object per line), for grep and jq.",
        discussion: "With several traces, each line also names its trace (\"trace\": \"path\").")

    @OptionGroup var traces: TraceOptions

    func run() throws {
        let inputs = try traces.inputs()
        for input in inputs {
            // Several traces: the trace's path first in every object, so lines stay attributable.
            let prefix = inputs.count > 1 ? "{\"trace\":\(Escape.jsonString(input.path))," : nil
            do {
                let reader = try TraceReader(path: input.path)
                let progress = ProgressLine(path: input.path, mode: traces.progress)
                var count: UInt64 = 0
                while let event = try reader.next() {
                    let line = JSONLines.line(for: event)
                    StandardOutput.shared.jsonLine(prefix.map { $0 + line.dropFirst() } ?? line)
                    count += 1
                    progress.update(bytesRead: reader.bytesRead, events: count)
                }
                progress.finish()
                for warning in reader.warnings {
                    StandardError.write("bind-trace: \(input.path): warning: \(warning)")
                }
            } catch {
                throw ToolFailure(path: input.path, error)
            }
        }
    }
}
