import BindAnalysis
import BindTraceModel

/// The words the picture uses for kinds and findings, and how long a text may get.
extension TraceGraphBuilder {
    static func kindName(_ kind: OutputKind) -> String {
        switch kind {
        case .output: "Output"
        case .relay: "Relay"
        default: kind.description
        }
    }

    static func findingWord(_ kind: Finding.Kind) -> String {
        switch kind {
        case .leakedSubscription: "leaked subscription"
        case .leakedOutput: "leaked Output"
        case .retainCycle: "retain cycle"
        case .duplicateBinding: "duplicate binding"
        case .danglingBinder: "dangling binder"
        case .feedbackCycle: "feedback loop"
        case .structuralCycle: "structural cycle"
        case .glitch: "glitch"
        case .redundantUpdate: "redundant updates"
        case .stoppedCombine: "stopped combine"
        }
    }

    /// At most `limit` characters, with `…` when cut (labels are sanitised later by the renderer).
    static func shortened(_ text: String, to limit: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let cut = line.count > limit || line.count < text.count
        return cut ? String(line.prefix(limit - 1)) + "…" : line
    }
}
