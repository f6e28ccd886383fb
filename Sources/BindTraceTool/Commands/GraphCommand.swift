import ArgumentParser
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindGraph
import BindText
import Foundation

/// `bind-trace graph FILE -o graph.svg`: the Outputs, their dependencies, subscribers and findings, drawn.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the Outputs, how they depend on each other, their subscribers and the findings.",
        discussion: """
            Laid out by Graphviz (libgvc) in process. Nodes are Outputs (blue: Output, yellow: Relay, \
            green: derived); edges are styled by operator (see the legend); small dashed nodes are \
            subscribers. Leaks and cycles found by `check` are red, dangling binders grey, released \
            Outputs (--include-released) faded. Repeated identical structures are drawn once with ×N. \
            At most --max-nodes Output nodes are drawn (findings first); standard error says what was \
            left out. Without --at the graph shows the end of the trace; when no Output is alive there, \
            the moment most Outputs were alive, and says so. Findings do not change the exit status: 0 when the graph was written, 2 when it \
            could not be.
            """)

    @OptionGroup var traces: TraceOptions

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Where to write the picture; - for standard output (svg, dot).", valueName: "path"))
    var output: String?

    @Option(help: "Picture format: svg, dot, png or pdf.")
    var format: PictureFormat = .svg

    @OptionGroup var graphOptions: GraphOptions

    @Option(help: ArgumentHelp("Draw the graph as it stood right after this event.", valueName: "seq"))
    var at: UInt64?

    @Flag(help: "Also draw Outputs already released (faded).")
    var includeReleased = false

    @OptionGroup var judging: JudgingOptions

    func validate() throws {
        if format.graphFormat.isText == false, output == nil || output == "-" {
            throw ValidationError("\(format.rawValue) is binary: name a file with -o")
        }
    }

    func run() throws {
        let file = try traces.single("graph")
        var options = judging.options()
        options.keepsReleasedOutputs = includeReleased
        options.stateAt = at
        let run = try TraceRun.analyze(
            [TraceInputs.Input(path: file, isExplicit: true)], options: options, progress: traces.progress)
        let result = run.traces[0].result
        run.reportProblems()
        if let at, at > result.summary.events {
            throw ToolFailure("\(file): there is no event \(at) (the trace has \(result.summary.events))")
        }

        var moment = at.map { "after event #\($0)" } ?? "at the end (event #\(result.summary.events))"
        var state = result.state
        // Nothing alive at the end (a program that released everything): draw its busiest moment instead.
        if at == nil, !includeReleased, state.outputs.isEmpty {
            do {
                if let busiest = try BusiestMoment.find(inTrace: file) {
                    state = try BusiestMoment.state(at: busiest.sequence, inTrace: file, options: options).state
                    moment = "\(busiest.description); none is alive at the end (event #\(result.summary.events))"
                }
            } catch {
                throw ToolFailure(path: file, error)
            }
        }
        let builder = graphOptions.builder(
            title: "\(Self.fileName(file)): Outputs \(moment)", maximumNodes: graphOptions.maxNodes)
        let graph = builder.build(state, findings: result.findings)
        if let omitted = graph.omissionNote(maximumNodes: graphOptions.maxNodes) {
            StandardError.write("bind-trace: \(file): graph: \(omitted) (raise with --max-nodes)")
        }
        let renderer = GraphvizRenderer()
        let rendered: RenderedGraph
        do {
            rendered = try renderer.render(
                graph.document, format: format.graphFormat, layout: graphOptions.layout.graphLayout)
        } catch {
            throw ToolFailure("\(file): cannot draw the graph: \(error)")
        }
        for warning in rendered.warnings { StandardError.write("bind-trace: graphviz: warning: \(warning)") }

        if let output, output != "-" {
            do {
                try AtomicFile.write(bytes: [UInt8](rendered.data), to: output)
            } catch {
                throw ToolFailure("\(output): cannot write: \(error.reason)")
            }
        } else {
            StandardOutput.shared.write(String(decoding: rendered.data, as: UTF8.self))
        }
        let findings = result.findings.count == 1 ? "1 finding" : "\(result.findings.count) findings"
        StandardError.write(
            "bind-trace: \(file): graph \(moment): \(graph.description), layout \(rendered.layout), \(findings) drawn"
                + (output.map { $0 == "-" ? "" : " → \($0)" } ?? ""))
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// The picture formats `graph` writes.
enum PictureFormat: String, ExpressibleByArgument, CaseIterable {
    case svg, dot, png, pdf

    var graphFormat: GraphFormat {
        switch self {
        case .svg: .svg
        case .dot: .dot
        case .png: .png
        case .pdf: .pdf
        }
    }
}
