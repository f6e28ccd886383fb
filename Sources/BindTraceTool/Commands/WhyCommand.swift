import ArgumentParser
import BindAnalysis
import BindOutput
import BindTraceModel

/// `bind-trace why TRACE`: the causal chain of one event, from the app's call down to it.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Explain one event: the chain of updates that caused it, root first, with values.",
        discussion: """
            Select the event with --event N, or --output LABEL|ID (its last update, or --nth K), or \
            --closure FILE:LINE (the last value delivered to the subscription bound there). The root is \
            the update or fire the app called (its thread, line and value); each hop names the \
            subscription, the operator and its line, the Output updated and its value before and after. \
            A dangling event (a Binder delivered to after its target was released) is explained through \
            the update that delivered it, then the Binder, its line and its target type. Exit status 2 with one line on standard error when the selection matches nothing.
            """)

    @OptionGroup var traces: TraceOptions

    @Option(help: ArgumentHelp("Explain the event with this sequence number.", valueName: "n"))
    var event: UInt64?

    @Option(help: ArgumentHelp("Explain an update of the Output with this label or id.", valueName: "label|id"))
    var output: String?

    @Option(help: ArgumentHelp("With --output: its k-th update (from 1) instead of the last.", valueName: "k"))
    var nth: Int?

    @Flag(help: "With --output: its last update (the default).")
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

    func validate() throws {
        let selections = [event != nil, output != nil, closure != nil, finding != nil].filter { $0 }.count
        guard selections == 1 else {
            throw ValidationError("give exactly one of --event, --output, --closure, --finding")
        }
        if output == nil, nth != nil || last { throw ValidationError("--nth and --last go with --output") }
        if nth != nil, last { throw ValidationError("give --nth or --last, not both") }
        if let nth, nth < 1 { throw ValidationError("--nth counts from 1") }
        if let closure, Self.site(closure) == nil {
            throw ValidationError("--closure takes FILE:LINE, such as SignInScreen.swift:19")
        }
    }

    func run() throws {
        let path = try traces.single("why")
        if let finding { return try explainFinding(finding, in: path) }
        let selection = try self.selection()
        let target = try locate(selection, in: path)
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
        if let output { return .output(WhyOutputMatch(output), nth.map { .nth($0) } ?? .last) }
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
        _ = try stream(path) { event in locator.consume(event) }
        switch locator.result() {
        case .success(let target): return target
        case .failure(let error): throw ToolFailure("\(path): \(error)")
        }
    }

    /// The second pass: reads up to the selected event and builds its chain.
    func trace(_ target: WhyTarget, in path: String) throws -> WhyChain {
        var tracer = WhyTracer(target: target)
        let threadNames = try stream(path) { event in tracer.consume(event, threadName: nil) }
        guard var chain = tracer.chain() else { throw ToolFailure("\(path): there is no event \(target.event)") }
        // Named once the reading thread is done with the reader (see `stream`).
        for index in chain.steps.indices { chain.steps[index].threadName = threadNames[chain.steps[index].thread] }
        return chain
    }

    /// Reads `path`'s events into `consume` until it returns true or the trace ends, decoding on a
    /// second thread as `check` does; returns the threads' names, read once that thread is done.
    func stream(_ path: String, _ consume: (TraceEvent) -> Bool) throws(ToolFailure) -> [UInt32: String] {
        do throws(TraceReadError) {
            let reader = try TraceReader(path: path)
            let progress = ProgressLine(path: path, mode: traces.progress)
            try read(reader, progress: progress, consume)
            progress.finish()
            return reader.threadNames
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
