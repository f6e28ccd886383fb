import BindTraceTestSupport
import Testing

/// Every exported Perfetto file is parsed with Perfetto's own trace schema (the `perfetto` Python
/// package's `perfetto_trace_pb2`, installed by `make setup`), not only with our subset of it: a
/// field number Perfetto does not have, or a known one written with the wrong wire type, is kept as
/// an unknown field, and any unknown field fails the test.
///
/// Required, not skipped when missing: without it the tests fail with the line that installs it.
enum PerfettoSchema {
    static func expectValid(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            PythonChecks.hasPerfetto,
            "python3 with Perfetto's schema is installed (python3 -m pip install perfetto; make setup)",
            sourceLocation: sourceLocation)
        let problems = try PythonChecks.perfettoProblems(path)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }
}
