import BindOutput
import BindTraceModel

/// Why an export stopped: the trace could not be read, or the output could not be written.
package enum TimelineWriteError: Error, CustomStringConvertible {
    case unreadableTrace(path: String, TraceReadError)
    case unwritableOutput(FileWriteFailure)

    /// One line naming the file: `app.trace: not a Bind trace`, `out.pftrace: cannot write: …`.
    package var description: String {
        switch self {
        case .unreadableTrace(let path, let error): "\(path): \(error)"
        case .unwritableOutput(let failure): "\(failure.path): cannot write: \(failure.reason)"
        }
    }
}
