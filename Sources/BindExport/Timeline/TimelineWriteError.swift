import BindText
import BindTraceModel

/// Why an export stopped: the trace could not be read, or the output could not be written.
package enum TimelineWriteError: Error, CustomStringConvertible {
    case unreadableTrace(path: String, TraceReadError)
    case unwritableOutput(FileWriteFailure)
    /// The trace never names the focus scope of the options: there is nothing to judge (the CLI
    /// words it as for every command, `TraceRun.requireFocusScope`).
    case focusScopeNotNamed(path: String, scope: UInt64)

    /// One line naming the file: `app.trace: not a Bind trace`, `out.pftrace: cannot write: …`.
    package var description: String {
        switch self {
        case .unreadableTrace(let path, let error): "\(path): \(error)"
        case .unwritableOutput(let failure): "\(failure.path): cannot write: \(failure.reason)"
        case .focusScopeNotNamed(let path, let scope): "\(path): no scope \(scope) in this trace"
        }
    }
}
