import BindDiff
@_spi(Harness) import BindGraph
@_spi(Harness) import BindReport

extension ReportCommand {
    /// Fills the report's "Changes since BASE" section: `bind-trace diff BASE TRACE…` with the default
    /// growth threshold, and its picture (left out, with a warning, when Graphviz cannot draw it).
    func addChanges(since base: String, to content: inout ReportContent) throws(ToolFailure) {
        let options = judging.options()
        let (baseSide, baseRun) = try DiffSides.read([base], options: options, progress: traces.progress)
        let (headSide, _) = try DiffSides.read(traces.traces, options: options, progress: traces.progress)
        DiffSides.reportProblems(baseRun, side: "BASE", allowIncomplete: true)
        let diff = RunDiff(base: baseSide, head: headSide)
        content.changes = diff
        do {
            let rendered = try GraphvizRenderer().render(diff.graphDocument(), format: .svg)
            content.changesSVG = String(decoding: rendered.data, as: UTF8.self)
        } catch {
            StandardError.write("bind-trace: \(base): warning: the changes' graph was not drawn: \(error)")
        }
    }
}
