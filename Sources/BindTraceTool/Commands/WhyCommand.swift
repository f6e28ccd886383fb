import ArgumentParser
import BindAnalysis
import BindText
@_spi(Harness) import BindTraceModel

/// `bind-trace why TRACE`: the causal chain of one event, from the app's call down to it.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Explain one event: the chain of updates that caused it, root first, with values.",
        discussion: """
            Select the event with --event SEQ, or --label LABEL or --output-id ID (its last update, or \
            --nth K; when several Outputs share the label, the one updated last, with a note naming the others), or \
            --closure FILE:LINE (the last value delivered to the subscription bound there). The root is \
            the update or fire the app called (its thread, line and value); each hop names the \
            subscription, the operator and its line, the Output updated and its value before and after. \
            A dangling event (a Binder delivered to after its target was released) is explained through \
            the update that delivered it, then the Binder, its line and its target type. Exit status 2 with one line on standard error when the selection matches nothing.
            """)

    @OptionGroup var traces: TraceOptions

    // Unconditional, so that `--event -3` reaches `validate()` and is refused for what it is, not
    // taken for a missing value followed by an option.
    @Option(
        name: .customLong("event"), parsing: .unconditional,
        help: ArgumentHelp("Explain the event with this sequence number.", valueName: "seq"))
    var eventText: String?

    @Option(help: ArgumentHelp("Explain an update of the Output with exactly this label.", valueName: "label"))
    var label: String?

    @Option(help: ArgumentHelp("Explain an update of the Output with this id.", valueName: "id"))
    var outputID: UInt64?

    /// The 1.0 spelling (`--output LABEL|ID`): `--output` names the file to write in every
    /// other command, so the selector has its own names now. Kept working, with a warning.
    @Option(name: .customLong("output"), help: .hidden)
    var deprecatedOutput: String?

    @Option(
        help: ArgumentHelp("With --label or --output-id: its k-th update (from 1) instead of the last.", valueName: "k")
    )
    var nth: Int?

    @Flag(help: "With --label or --output-id: its last update (the default).")
    var last = false

    @Option(
        help: ArgumentHelp(
            "Explain the last value delivered to the subscription bound at this line.", valueName: "file:line"))
    var closure: String?

    @Option(
        help: ArgumentHelp(
            "Tell the life of this finding: its number in check's list (from 1) or its fingerprint.",
            valueName: "n|fingerprint"))
    var finding: String?

    @Option(help: "Output format: text, or json (one object; docs/cli.md has its schema).")
    var format: OutputFormat = .text

    /// `--event`'s number; nil when not given (validated: a number from 0).
    var event: UInt64? { eventText.flatMap { UInt64($0) } }

    func validate() throws {
        if let eventText, UInt64(eventText) == nil {
            throw ValidationError(
                "--event takes an event's sequence number (as dump and replay show them), not '\(eventText)'")
        }
        let selections = [
            eventText != nil, label != nil, outputID != nil, deprecatedOutput != nil, closure != nil, finding != nil,
        ]
        .filter { $0 }.count
        guard selections == 1 else {
            throw ValidationError("give exactly one of --event, --label, --output-id, --closure, --finding")
        }
        if label == nil, outputID == nil, deprecatedOutput == nil, nth != nil || last {
            throw ValidationError("--nth and --last go with --label or --output-id")
        }
        if nth != nil, last { throw ValidationError("give --nth or --last, not both") }
        if let nth, nth < 1 { throw ValidationError("--nth counts from 1") }
        if let closure, Self.site(closure) == nil {
            throw ValidationError("--closure takes FILE:LINE, such as SignInScreen.swift:19")
        }
    }

    func run() throws {
        if let deprecatedOutput {
            let replacement = UInt64(deprecatedOutput) == nil ? "--label LABEL" : "--output-id ID"
            StandardError.write(
                "bind-trace: warning: why --output is deprecated (--output names the file to write elsewhere); "
                    + "use \(replacement)")
        }
        let path = try traces.single("why")
        if let finding { return try explainFinding(finding, in: path) }
        let selection = try self.selection()
        let target = try locate(selection, in: path)
        if let note = target.note { StandardError.write("bind-trace: \(path): note: \(note)") }
        let chain = try trace(target, in: path)
        switch format {
        case .text:
            for line in WhyText.lines(chain) { StandardOutput.shared.line(line) }
        case .json:
            StandardOutput.shared.jsonLine(WhyJSON.document(chain, trace: path).compactText)
        }
    }

    private func selection() throws -> WhySelection {
        if let event { return .event(event) }
        let occurrence: WhyOccurrence = nth.map { .nth($0) } ?? .last
        if let label { return .output(.label(label), occurrence) }
        if let outputID { return .output(.id(outputID), occurrence) }
        if let deprecatedOutput { return .output(WhyOutputMatch(deprecatedOutput), occurrence) }
        guard let closure, let site = Self.site(closure) else { throw ValidationError("no selection") }
        return .closure(site)
    }

    /// `File.swift:42` as a site; nil when it does not end in `:line`.
    static func site(_ text: String) -> SourceSite? {
        guard let colon = text.lastIndex(of: ":"), let line = UInt(text[text.index(after: colon)...]),
            colon != text.startIndex
        else { return nil }
        return SourceSite(file: String(text[..<colon]), line: line)
    }

    /// The first pass: which event the selection names (for --event, a read up to it, to say how
    /// many events there are when it is not there).
    private func locate(_ selection: WhySelection, in path: String) throws -> WhyTarget {
        var locator = WhyLocator(selection)
        try stream(path) { event in locator.consume(event) }
        switch locator.result() {
        case .success(let target): return target
        case .failure(let error): throw ToolFailure("\(path): \(error)")
        }
    }

    /// The second pass: reads up to the selected event and builds its chain.
    func trace(_ target: WhyTarget, in path: String) throws -> WhyChain {
        var tracer = WhyTracer(target: target)
        let read = try stream(path) { event in tracer.consume(event, threadName: nil) }
        guard var chain = tracer.chain() else { throw ToolFailure("\(path): there is no event \(target.event)") }
        if target.traceRecordsValues { chain.recordsValues = true }
        chain.causedBeforeStart(read.eventsCausedBeforeStart)
        // Named once the reading thread is done with the reader (see `stream`).
        for index in chain.steps.indices { chain.steps[index].threadName = read.threadNames[chain.steps[index].thread] }
        return chain
    }

    /// What a reading learned besides its events.
    struct StreamRead {
        let threadNames: [UInt32: String]
        /// The events read whose cause came before the trace began (``TraceReader/eventsCausedBeforeStart``).
        let eventsCausedBeforeStart: Set<UInt64>
    }

    /// Reads `path`'s events into `consume` until it returns true or the trace ends, decoding on a
    /// second thread as `check` does; returns the threads' names, read once that thread is done.
    @discardableResult
    func stream(_ path: String, _ consume: (TraceEvent) -> Bool) throws(ToolFailure) -> StreamRead {
        do throws(TraceReadError) {
            let reader = try TraceReader(path: path)
            let progress = ProgressLine(path: path, mode: traces.progress)
            try read(reader, progress: progress, consume)
            progress.finish()
            return StreamRead(threadNames: reader.threadNames, eventsCausedBeforeStart: reader.eventsCausedBeforeStart)
        } catch {
            throw ToolFailure(path: path, error)
        }
    }

    /// The reading loop of ``stream(_:_:)``: its read-ahead (and the decoding thread, which owns
    /// the reader until then) is gone when it returns.
    private func read(_ reader: TraceReader, progress: ProgressLine, _ consume: (TraceEvent) -> Bool)
        throws(TraceReadError)
    {
        let readAhead = TraceReadAhead(reader)
        var strings = DefinedStrings()
        var count: UInt64 = 0
        while let batch = readAhead.next() {
            strings.take(batch)
            for index in 0..<batch.count {
                count += 1
                if consume(strings.event(in: batch, at: index)) { return }
            }
            progress.update(bytesRead: batch.bytesRead, events: count)
            if let failure = batch.failure { throw failure }
            readAhead.recycle(batch)
        }
    }
}
