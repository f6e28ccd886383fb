import Foundation
import Testing

/// Runs the real `protoc` (Debian's `protobuf-compiler`, installed by `make setup`) on an exported
/// file: `--decode_raw` (the wire format alone) or `--decode` with the fields of Perfetto's schema
/// the export writes (`perfetto_subset.proto`, field numbers from google/perfetto).
///
/// Required, not skipped when missing: a test that cannot see the file would prove nothing. Without
/// it the tests fail with the line that installs it.
enum Protoc {
    static var executable: String? {
        ["/usr/bin/protoc", "/usr/local/bin/protoc", "/opt/homebrew/bin/protoc"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// `protoc --decode_raw < file`: fails the test when the bytes are not protobuf.
    static func decodeRaw(_ file: String) throws -> String {
        try run(["--decode_raw"], input: file)
    }

    /// `protoc --decode=perfetto.protos.Trace perfetto_subset.proto < file`, parsed.
    static func decodeTrace(_ file: String) throws -> TextMessage {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let text = try run(
            ["--proto_path=\(schema.path)", "--decode=perfetto.protos.Trace", "perfetto_subset.proto"], input: file)
        return try TextMessage.parse(text)
    }

    private static func run(_ arguments: [String], input: String) throws -> String {
        let protoc = try #require(executable, "protoc is installed (apt-get install protobuf-compiler; make setup)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: protoc)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a full pipe would block protoc.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "protoc \(arguments.joined(separator: " ")): \(errorText)")
        return String(decoding: data, as: UTF8.self)
    }
}

/// A message in protobuf's text format, as `protoc --decode` prints it: fields in order, each a
/// scalar (numbers and enum names as written, strings unescaped) or a nested message.
struct TextMessage {
    enum Value {
        case scalar(String)
        case message(TextMessage)
    }

    var fields: [(name: String, value: Value)] = []

    func messages(_ name: String) -> [TextMessage] {
        fields.compactMap { field in
            guard field.name == name, case .message(let message) = field.value else { return nil }
            return message
        }
    }

    func message(_ name: String) -> TextMessage? { messages(name).first }

    func scalars(_ name: String) -> [String] {
        fields.compactMap { field in
            guard field.name == name, case .scalar(let text) = field.value else { return nil }
            return text
        }
    }

    func scalar(_ name: String) -> String? { scalars(name).first }

    func number(_ name: String) -> UInt64? { scalar(name).flatMap { UInt64($0) } }

    static func parse(_ text: String) throws -> TextMessage {
        var parser = Parser(bytes: Array(text.utf8))
        let message = try parser.message()
        let parsedWhole = parser.isAtEnd
        #expect(parsedWhole, "protoc's text output parses to its end")
        return message
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool {
            mutating get {
                skipSpace()
                return position == bytes.count
            }
        }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        mutating func message() throws -> TextMessage {
            var message = TextMessage()
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] != UInt8(ascii: "}") else { return message }
                let start = position
                while position < bytes.count, ![0x20, 0x3A, 0x7B, 0x0A].contains(bytes[position]) { position += 1 }
                let name = String(decoding: bytes[start..<position], as: UTF8.self)
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: ":") {
                    position += 1
                    skipSpace()
                    message.fields.append((name, .scalar(try scalar())))
                } else {
                    try #require(position < bytes.count && bytes[position] == UInt8(ascii: "{"), "a { after \(name)")
                    position += 1
                    let inner = try self.message()
                    try #require(position < bytes.count && bytes[position] == UInt8(ascii: "}"), "a } closing \(name)")
                    position += 1
                    message.fields.append((name, .message(inner)))
                }
            }
        }

        mutating func scalar() throws -> String {
            guard bytes[position] == UInt8(ascii: "\"") else {
                let start = position
                while position < bytes.count, ![0x20, 0x0A].contains(bytes[position]) { position += 1 }
                return String(decoding: bytes[start..<position], as: UTF8.self)
            }
            // A C-escaped string: \n \t \" \\ \' and octal \NNN (bytes).
            position += 1
            var result: [UInt8] = []
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                var byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\\") {
                    let escaped = bytes[position]
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "n"): byte = 0x0A
                    case UInt8(ascii: "r"): byte = 0x0D
                    case UInt8(ascii: "t"): byte = 0x09
                    case UInt8(ascii: "0")...UInt8(ascii: "7"):
                        var value = Int(escaped - UInt8(ascii: "0"))
                        for _ in 0..<2 where position < bytes.count && (0x30...0x37).contains(bytes[position]) {
                            value = value * 8 + Int(bytes[position] - 0x30)
                            position += 1
                        }
                        byte = UInt8(value)
                    default: byte = escaped
                    }
                }
                result.append(byte)
            }
            try #require(position < bytes.count, "a string closes")
            position += 1
            return String(decoding: result, as: UTF8.self)
        }
    }
}
