import Foundation

/// Standard validators the tests borrow from Python (both installed by `make setup`): `jsonschema`
/// (Draft 2020-12) for the JSON outputs documented by a schema in docs/schemas/, and Perfetto's own
/// trace schema (the `perfetto` package's `perfetto_trace_pb2`) for exported Perfetto files.
package enum PythonChecks {
    /// Whether `python3` can import `jsonschema`.
    package static let hasJSONSchema = canImport("jsonschema")
    /// Whether `python3` can import Perfetto's trace schema.
    package static let hasPerfetto = canImport("perfetto.protos.perfetto.trace.perfetto_trace_pb2")

    /// What a Draft 2020-12 validator finds wrong with each JSON document (one per element of
    /// `documents`) against the schema file at `schema`: `document 1: chain/0/via: None is not of
    /// type 'object'`; empty when all are valid. Throws when the schema itself is not valid.
    package static func jsonSchemaProblems(schema: String, documents: [String]) throws -> [String] {
        let script = """
            import json, sys
            from jsonschema import Draft202012Validator
            schema = json.load(open(sys.argv[1]))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            for number, line in enumerate(sys.stdin, 1):
                if not line.strip():
                    continue
                for error in sorted(validator.iter_errors(json.loads(line)), key=str):
                    where = "/".join(str(part) for part in error.absolute_path) or "$"
                    print(f"document {number}: {where}: {error.message}")
            """
        let input = documents.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
        return try run(script, arguments: [schema], input: input)
    }

    /// What Perfetto's own schema finds wrong with the Perfetto trace at `path`: a file that does not
    /// parse as `perfetto.protos.Trace`, or any field it does not know (a wrong field number, or a
    /// known number written with the wrong wire type, which protobuf keeps as unknown), named by
    /// its place: `packet[3].track_event: unknown field 99`. Empty when the file is valid.
    package static func perfettoProblems(_ path: String) throws -> [String] {
        let script = """
            import sys
            from google.protobuf import unknown_fields
            from perfetto.protos.perfetto.trace import perfetto_trace_pb2
            trace = perfetto_trace_pb2.Trace()
            try:
                trace.ParseFromString(open(sys.argv[1], "rb").read())
            except Exception as error:
                print(f"not a perfetto.protos.Trace: {error}")
                sys.exit(0)
            if not trace.packet:
                print("no packet")
            def is_repeated(descriptor):
                if hasattr(descriptor, "is_repeated"):
                    return descriptor.is_repeated
                return descriptor.label == descriptor.LABEL_REPEATED
            def walk(message, place):
                for field in unknown_fields.UnknownFieldSet(message):
                    print(f"{place}: unknown field {field.field_number} (wire type {field.wire_type})")
                for descriptor, value in message.ListFields():
                    if descriptor.message_type is None:
                        continue
                    if is_repeated(descriptor):
                        if descriptor.message_type.GetOptions().map_entry:
                            continue
                        for index, item in enumerate(value):
                            walk(item, f"{place}.{descriptor.name}[{index}]")
                    else:
                        walk(value, f"{place}.{descriptor.name}")
            walk(trace, "trace")
            """
        return try run(script, arguments: [path], input: "")
    }

    private static func canImport(_ module: String) -> Bool {
        (try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import \(module)"]))?.status
            == 0
    }

    /// Runs `script` with `python3` on `input`; its standard output's lines. Throws when Python fails.
    private static func run(_ script: String, arguments: [String], input: String) throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("python-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scriptFile = directory.appendingPathComponent("check.py")
        let inputFile = directory.appendingPathComponent("input")
        try Data(script.utf8).write(to: scriptFile)
        try Data(input.utf8).write(to: inputFile)
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec python3 \"$0\" \"$@\" < \"\(inputFile.path)\"", scriptFile.path] + arguments)
        guard run.status == 0 else { throw PythonCheckError(message: run.standardError) }
        return run.standardOutput.split(separator: "\n").map(String.init)
    }
}

/// Python itself failed (not installed, a module missing, a schema that is not valid).
package struct PythonCheckError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { "python3 failed: \(message)" }
}
