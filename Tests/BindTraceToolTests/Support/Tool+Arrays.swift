import BindTraceTestSupport
import Foundation

extension Tool {
    /// Runs `bind-trace` with `arguments` given as an array, in `directory` when given.
    static func run(_ arguments: [String], in directory: String? = nil) throws -> Run {
        try ChildProcess.run(executable(), arguments, in: directory)
    }
}
