import BindTraceModel

/// Which event `bind-trace why` explains.
package enum WhySelection: Hashable, Sendable {
    /// The event with this sequence number (the number `replay`, `dump` and findings show).
    case event(UInt64)
    /// An update or fire of an Output: the `occurrence`-th, or the last.
    case output(WhyOutputMatch, WhyOccurrence)
    /// The last delivery to a subscription bound at this site: the last update or fire of its
    /// Output while it was bound. `file` may be the file's name alone (`Screen.swift`) or any
    /// trailing part of its `#fileID`.
    case closure(SourceSite)
}

/// How an Output is named on the command line.
package enum WhyOutputMatch: Hashable, Sendable {
    case id(UInt64)
    /// Its label, exactly.
    case label(String)

    /// `output` given as text: digits are an id, anything else a label.
    package init(_ text: String) {
        if let id = UInt64(text) { self = .id(id) } else { self = .label(text) }
    }
}

/// Which of an Output's updates.
package enum WhyOccurrence: Hashable, Sendable {
    /// The k-th, from 1.
    case nth(Int)
    case last
}

/// What a selection found in the first pass: the event to explain, and for a closure selection,
/// the subscription it delivered to.
package struct WhyTarget: Hashable, Sendable {
    package var event: UInt64
    package var subscription: UInt64?

    package init(event: UInt64, subscription: UInt64? = nil) {
        self.event = event
        self.subscription = subscription
    }
}

/// A selection that matches nothing, with what the trace did hold: the CLI's one-line error.
package struct WhySelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
}

/// The first pass of `why`: streams the events once and finds the one a ``WhySelection`` names.
///
/// Keeps only what is alive (the labels and subscription sites of live Outputs and subscriptions)
/// and a bounded sample of the labels and sites seen, for the error message, so memory stays flat
/// however long the trace.
package struct WhyLocator {
    package let selection: WhySelection
    /// Events seen so far.
    package private(set) var events: UInt64 = 0
    private var found: WhyTarget?
    private var matchedOutputs: Set<UInt64> = []
    private var updatesOfMatched = 0
    private var labels: [UInt64: String] = [:]
    /// Distinct labels and bind sites seen, at most ``sampleLimit`` of each: the "did you mean" list.
    private var seenLabels: Set<String> = []
    private var seenSites: Set<SourceSite> = []
    /// Live subscriptions bound at the selected site, by the Output they are bound to.
    private var boundAtSite: [UInt64: Set<UInt64>] = [:]
    private var subscriptionOutputs: [UInt64: UInt64] = [:]
    private var bindsAtSite = 0
    private static let sampleLimit = 10_000

    package init(_ selection: WhySelection) {
        self.selection = selection
        if case .output(.id(let id), _) = selection { matchedOutputs.insert(id) }
    }

    /// Takes in the next event; returns `true` once the selection is found for good (no later
    /// event can change it), so the caller can stop reading.
    package mutating func consume(_ event: TraceEvent) -> Bool {
        events += 1
        switch selection {
        case .event(let sequence):
            if event.sequence == sequence {
                found = WhyTarget(event: sequence)
                return true
            }
        case .output(let match, let occurrence):
            track(labelsOf: event, match: match)
            switch event.kind {
            case .updated(let output, _, _), .fired(let output, _, _):
                guard matchedOutputs.contains(output) else { break }
                updatesOfMatched += 1
                found = WhyTarget(event: event.sequence)
                if case .nth(let k) = occurrence, updatesOfMatched == k { return true }
            default: break
            }
        case .closure(let site):
            trackClosures(event, site: site)
        }
        return false
    }

    /// The event to explain, or why there is none.
    package func result() -> Result<WhyTarget, WhySelectionError> {
        switch selection {
        case .event(let sequence):
            if let found { return .success(found) }
            return .failure(WhySelectionError(description: "there is no event \(sequence) (the trace has \(events))"))
        case .output(let match, let occurrence):
            let name: String
            switch match {
            case .id(let id): name = "Output #\(id)"
            case .label(let label): name = "'\(Narrator.shortened(label))'"
            }
            if updatesOfMatched == 0 {
                if case .label(let label) = match, matchedOutputs.isEmpty {
                    let nearest = Self.nearest(to: label, in: seenLabels).map { "'\(Narrator.shortened($0))'" }
                    let known =
                        nearest.isEmpty ? "no Output has a label" : "nearest labels: " + nearest.joined(separator: ", ")
                    return .failure(
                        WhySelectionError(description: "no Output is labelled \(name) (\(known); \(events) events)"))
                }
                return .failure(WhySelectionError(description: "\(name) was never updated (\(events) events)"))
            }
            if case .nth(let k) = occurrence, k != updatesOfMatched || found == nil {
                return .failure(
                    WhySelectionError(
                        description:
                            "\(name) was updated \(Narrator.count(UInt64(updatesOfMatched), "time")); there is no update \(k)"
                    ))
            }
            if let found { return .success(found) }
            return .failure(WhySelectionError(description: "\(name) was never updated (\(events) events)"))
        case .closure(let site):
            if let found { return .success(found) }
            if bindsAtSite > 0 {
                return .failure(
                    WhySelectionError(
                        description:
                            "the subscription bound at \(site) never received a value after its bind (\(events) events)"
                    ))
            }
            let sameFile = seenSites.filter { Self.file($0.file, matches: site.file) }.sorted().prefix(5)
            let known =
                sameFile.isEmpty
                ? "no bind in a file named \(site.file)"
                : "binds in that file: " + sameFile.map { "line \($0.line)" }.joined(separator: ", ")
            return .failure(WhySelectionError(description: "nothing was bound at \(site) (\(known); \(events) events)"))
        }
    }

    private mutating func track(labelsOf event: TraceEvent, match: WhyOutputMatch) {
        switch event.kind {
        case .outputCreated(let creation):
            if let label = creation.label { remember(label: label, of: creation.output) }
        case .labeled(let output, let label):
            remember(label: label, of: output)
        case .released(let output):
            labels[output] = nil
        default: return
        }
        if case .label(let wanted) = match {
            switch event.kind {
            case .outputCreated(let creation):
                if creation.label == wanted { matchedOutputs.insert(creation.output) }
            case .labeled(let output, let label):
                if label == wanted { matchedOutputs.insert(output) } else { matchedOutputs.remove(output) }
            default: break
            }
        }
    }

    private mutating func remember(label: String, of output: UInt64) {
        labels[output] = label
        if seenLabels.count < Self.sampleLimit { seenLabels.insert(label) }
    }

    private mutating func trackClosures(_ event: TraceEvent, site: SourceSite) {
        switch event.kind {
        case .bound(let binding):
            if seenSites.count < Self.sampleLimit { seenSites.insert(binding.site) }
            guard binding.site.line == site.line, Self.file(binding.site.file, matches: site.file) else { return }
            bindsAtSite += 1
            boundAtSite[binding.output, default: []].insert(binding.subscription)
            subscriptionOutputs[binding.subscription] = binding.output
        case .unbound(let subscription, _, _):
            guard let output = subscriptionOutputs.removeValue(forKey: subscription) else { return }
            boundAtSite[output]?.remove(subscription)
            if boundAtSite[output]?.isEmpty == true { boundAtSite[output] = nil }
        case .updated(let output, _, _), .fired(let output, _, _):
            if let subscriptions = boundAtSite[output], let subscription = subscriptions.max() {
                found = WhyTarget(event: event.sequence, subscription: subscription)
            }
        default: break
        }
    }

    /// Whether a recorded `#fileID` is the file the user named: equal, or ending in `/name`.
    static func file(_ recorded: String, matches wanted: String) -> Bool {
        recorded == wanted || recorded.hasSuffix("/" + wanted)
    }

    /// Up to three labels closest to `wanted`: those containing it or contained in it first, then
    /// by edit distance.
    static func nearest(to wanted: String, in labels: Set<String>) -> [String] {
        let lowered = wanted.lowercased()
        let ranked = labels.map { label -> (Int, String) in
            let candidate = label.lowercased()
            if candidate.contains(lowered) || lowered.contains(candidate) { return (0, label) }
            return (1 + editDistance(Array(candidate.prefix(64)), Array(lowered.prefix(64))), label)
        }
        return ranked.sorted { $0 < $1 }.prefix(3).map(\.1)
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
