@_spi(Harness) import BindTraceModel

#if canImport(Glibc)
import Glibc
#endif

/// Everything a reader made of one input: the events before it stopped, and why it stopped.
package struct ReadOutcome: Equatable {
    package var events: [TraceEvent] = []
    package var warnings: [TraceWarning] = []
    package var error: TraceReadError?
    package var isComplete = false
    package var bytesRead = 0
}

/// Reads `bytes` with the in-memory reader, checking every invariant the format promises.
///
/// - Sequence numbers are 1, 2, 3, … with no gap; record offsets increase and lie inside the input,
///   after the header; a cause names an earlier event.
/// - An error or the end is final: `next()` after it yields no event.
/// - Every event prints as one line of valid JSON whose strings decode back to the event's strings.
package func readChecked(_ bytes: [UInt8]) -> ReadOutcome {
    var outcome = ReadOutcome()
    let reader: TraceReader
    do {
        reader = try TraceReader(bytes: bytes)
    } catch {
        require(error.offset == 0, "a header error at offset \(error.offset)")
        outcome.error = error
        return outcome
    }
    var previousOffset = -1
    var failure: TraceReadError?
    do {
        while let event = try reader.next() {
            require(
                event.sequence == UInt64(outcome.events.count + 1) &+ reader.skippedSequenceNumbers,
                "sequence \(event.sequence) after \(outcome.events.count) events and "
                    + "\(reader.skippedSequenceNumbers) lost")
            require(event.offset > previousOffset, "offset \(event.offset) after \(previousOffset)")
            require(
                event.offset >= 16 && event.offset < bytes.count,
                "offset \(event.offset) outside 16..<\(bytes.count)")
            if let cause = event.kind.cause {
                require(
                    cause.event >= 1 && cause.event < event.sequence,
                    "event \(event.sequence) caused by event \(cause.event)")
            }
            if outcome.events.count < 16 { checkJSON(of: event) }
            previousOffset = event.offset
            outcome.events.append(event)
        }
    } catch {
        require(
            error.offset >= 16 && error.offset < bytes.count,
            "error at offset \(error.offset) outside 16..<\(bytes.count): \(error)")
        require(error.offset > previousOffset, "error at \(error.offset) before the last event at \(previousOffset)")
        failure = error
    }
    for warning in reader.warnings {
        require(warning.offset >= 16 && warning.offset <= bytes.count, "warning at \(warning.offset): \(warning)")
    }
    require(reader.bytesRead <= bytes.count, "read \(reader.bytesRead) of \(bytes.count) bytes")
    outcome.error = failure
    outcome.warnings = reader.warnings
    outcome.isComplete = reader.isComplete
    outcome.bytesRead = reader.bytesRead
    do {
        // Finding 2 (fixed): a record length that does not fit 64 bits must not be read as a short one.
        if let overflow = firstOverflowingLength(bytes, before: reader.bytesRead) {
            require(
                failure != nil && failure!.offset <= overflow,
                "the record at \(overflow) has a length that overflows 64 bits, and was read")
        }
    }
    // The end is final; so is an error, once the reader promises it.
    do {
        let after = try? reader.next()
        require(
            after == nil,
            "event \(after!.sequence) at offset \(after!.offset) read after "
                + (failure.map { "the error \($0)" } ?? "the end"))
    }
    return outcome
}

/// Reads the same input through a file, the way `bind-trace` reads a trace: the outcome must match.
package func readFileChecked(_ bytes: [UInt8], matching expected: ReadOutcome) {
    let path = scratchFile(bytes)
    defer { unlink(path) }
    var outcome = ReadOutcome()
    do {
        let reader = try TraceReader(path: path)
        do {
            while let event = try reader.next() { outcome.events.append(event) }
        } catch {
            outcome.error = error
        }
        outcome.warnings = reader.warnings
        outcome.isComplete = reader.isComplete
        outcome.bytesRead = reader.bytesRead
    } catch {
        outcome.error = error
    }
    require(
        outcome.events == expected.events,
        "file read gave \(outcome.events.count) events, memory \(expected.events.count)")
    require(
        outcome.error == expected.error,
        "file read: \(String(describing: outcome.error)), memory: \(String(describing: expected.error))")
    require(outcome.warnings == expected.warnings, "file read warned \(outcome.warnings), memory \(expected.warnings)")
    require(outcome.isComplete == expected.isComplete, "file and memory disagree on completeness")
}

private let scratchDirectory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"

/// A file holding `bytes`, unique to this process. Not named `*.trace`: a flight segment's warning
/// read from `run.trace` names its neighbour, `run.previous.trace`, which a trace in memory has no
/// name for; under any other name it gives the naming rule, as from memory.
private func scratchFile(_ bytes: [UInt8]) -> String {
    let path = "\(scratchDirectory)/bind-fuzz-\(getpid()).bin"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(descriptor >= 0, "cannot create \(path)")
    var written = 0
    bytes.withUnsafeBytes { raw in
        while written < raw.count {
            let result = write(descriptor, raw.baseAddress! + written, raw.count - written)
            require(result > 0, "cannot write \(path)")
            written += result
        }
    }
    close(descriptor)
    return path
}

/// Checks that an event's JSON line is one valid JSON object whose strings are the event's strings.
func checkJSON(of event: TraceEvent) {
    // A `captured` line nests objects in arrays, past what this flat parser reads; its strings are
    // escaped by the same writer, and its lines are checked against docs/schemas by the tool's tests.
    if case .captured = event.kind { return }
    let line = JSONLines.line(for: event)
    var parser = JSONLineParser(Array(line.utf8))
    guard let members = parser.object() else {
        require(false, "not a JSON object: \(line.debugDescription)")
        return
    }
    var strings: [String] = []
    switch event.kind {
    case .outputCreated(let creation):
        strings = [creation.valueType, creation.site.description] + (creation.label.map { [$0] } ?? [])
    case .bound(let binding):
        strings = [binding.site.description] + (binding.target.map { [$0.type] } ?? [])
    case .updated(_, _, let preview?), .fired(_, _, let preview?): strings = [preview]
    case .scopeBegan(_, _, let name, let site): strings = [name, site.description]
    case .mark(let name, _): strings = [name]
    case .labeled(_, let label): strings = [label]
    default: break
    }
    for string in strings {
        let scalars = Array(string.unicodeScalars)
        require(
            members.contains { $0.utf8.count == string.utf8.count && Array($0.unicodeScalars) == scalars },
            "JSON line lost the string \(string.debugDescription): \(line.debugDescription)")
    }
}

/// The offset of the first record (before `limit`) whose length varint does not fit 64 bits: a
/// framing walk independent of the reader.
func firstOverflowingLength(_ bytes: [UInt8], before limit: Int) -> Int? {
    var position = 16
    while position < min(limit, bytes.count) {
        var cursor = position + 1
        var length: UInt64 = 0
        var shift: UInt64 = 0
        while cursor < bytes.count {
            let byte = bytes[cursor]
            cursor += 1
            if shift == 63 && byte > 1 { return position }
            if shift < 64 { length |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { break }
            shift += 7
            if shift > 63 { return nil }  // an endless varint: the reader reports that itself
        }
        guard length <= UInt64(bytes.count) else { return nil }
        position = cursor + Int(length)
    }
    return nil
}
