import Bind
import BindTraceModel

@_spi(Harness) @testable import BindAnalysis

/// A ``TraceBuilder`` trace plus the recorder's handle records (a `Subscription` added to a
/// container, a handle released), fed to the replay in order through its handle entry points.
struct HandleTrace {
    enum Step {
        case contained(subscription: UInt64, container: UInt64)
        case handleReleased(subscription: UInt64)
    }

    var trace = TraceBuilder()
    /// Handle steps, each applied before the event at `position` (the events' count when added).
    private(set) var steps: [(position: Int, step: Step)] = []

    mutating func contained(_ subscription: UInt64, in container: UInt64) {
        steps.append((trace.events.count, .contained(subscription: subscription, container: container)))
    }

    mutating func handleReleased(_ subscription: UInt64) {
        steps.append((trace.events.count, .handleReleased(subscription: subscription)))
    }

    /// Replays everything and returns the findings.
    func findings(options: AnalysisOptions = AnalysisOptions()) -> [Finding] {
        let replay = Replay(options: options)
        var pending = steps[...]
        func applySteps(upTo position: Int) {
            while let next = pending.first, next.position <= position {
                pending = pending.dropFirst()
                let sequence = replay.lastSequence
                switch next.step {
                case .contained(let subscription, let container):
                    replay.applyContained(subscription: subscription, container: container, sequence: sequence)
                case .handleReleased(let subscription):
                    replay.applyHandleReleased(subscription: subscription, sequence: sequence, time: sequence * 1000)
                }
            }
        }
        for (index, event) in trace.events.enumerated() {
            applySteps(upTo: index)
            replay.apply(event)
        }
        applySteps(upTo: Int.max)
        return replay.finish()
    }
}

/// `kind@line` of each finding.
func kindsAndLines(_ findings: [Finding]) -> [String] {
    findings.map { "\($0.kind.rawValue)@\($0.site?.line ?? 0)" }
}
