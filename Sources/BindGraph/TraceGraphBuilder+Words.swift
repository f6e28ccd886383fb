import BindAnalysis
import BindTraceModel

/// The words the picture uses for kinds and findings.
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
}
