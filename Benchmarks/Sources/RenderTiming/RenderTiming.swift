@_spi(Harness) import BindGraph
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `RenderTiming NODES dot|sfdp DOTFILE` lays out and draws `GraphDocument.randomDAG(nodes: NODES)`
/// as SVG with our `GraphvizRenderer`, prints the CPU seconds that took (process CPU time, user +
/// system: the layout runs on this thread), and writes the same graph as DOT (canonical, emitted by
/// Graphviz from our graph, our attributes included) to DOTFILE so that `dot -Tsvg` / `sfdp -Tsvg`
/// can lay out exactly the same graph. `Benchmarks/hooks/rendering.sh` compares the two.
@main
struct RenderTiming {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let nodes = Int(arguments[1]), nodes > 0 else {
            fail("usage: RenderTiming NODES dot|sfdp DOTFILE")
        }
        let layout = GraphLayout(rawValue: arguments[2])
        let renderer = GraphvizRenderer()
        let document = GraphDocument.randomDAG(nodes: nodes)
        do {
            // The Graphviz context (plugin loading, ~15 ms) is created once per process: not timed.
            _ = try renderer.render(.randomDAG(nodes: 2), format: .svg, layout: layout)
            let start = cpuSeconds()
            let rendered = try renderer.render(document, format: .svg, layout: layout)
            let seconds = cpuSeconds() - start
            guard rendered.data.count > 0 else { fail("RenderTiming: empty SVG") }
            let dot = try renderer.render(document, format: .canonicalDOT, layout: layout)
            try dot.data.write(to: URL(fileURLWithPath: arguments[3]))
            print(String(format: "%.3f", seconds))
        } catch {
            fail("RenderTiming: \(error)")
        }
    }

    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
