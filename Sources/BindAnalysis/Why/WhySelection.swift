@_spi(Harness) import BindTraceModel

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

/// An Output an Output selection may mean, and its updates so far.
private struct UpdateTally {
    var output: WhyOutput
    var updates = 0
    /// The `--nth` update's event, once there.
    var nth: UInt64?
    var last: UInt64?
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
    /// What the user should know about how the event was chosen (several Outputs share the label):
    /// one line for standard error, or nil.
    package var note: String?
    /// Whether the trace records values (an update or fire with a preview, anywhere the first
    /// pass read): a step without a value is then one no record carries, not previews turned off.
    package var traceRecordsValues = false

    package init(event: UInt64, subscription: UInt64? = nil, note: String? = nil) {
        self.event = event
        self.subscription = subscription
        self.note = note
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
    /// For an Output selection: the updates of each live Output that may match (every live Output
    /// for a label, since a label may come after its first updates), and those released that matched.
    private var tallies: [UInt64: UpdateTally] = [:]
    private var releasedMatches: [UpdateTally] = []
    /// Distinct labels and bind sites seen, at most ``sampleLimit`` of each: the "did you mean" list.
    private var seenLabels: Set<String> = []
    private var seenSites: Set<SourceSite> = []
    /// Live subscriptions bound at the selected site, by the Output they are bound to.
    private var boundAtSite: [UInt64: Set<UInt64>] = [:]
    private var subscriptionOutputs: [UInt64: UInt64] = [:]
    private var bindsAtSite = 0
    private static let sampleLimit = 10_000
    /// Whether an update or fire read so far carried a preview.
    private var recordsValues = false
    /// How far past a found `--event` the first pass reads to learn whether the trace has values.
    private static let valueLookahead: UInt64 = 10_000

    package init(_ selection: WhySelection) {
        self.selection = selection
        if case .output(.id(let id), _) = selection {
            // Updates count even when the trace never announced the Output (it began mid-run).
            tallies[id] = UpdateTally(
                output: WhyOutput(id: id, kind: .output, valueType: "", site: SourceSite(file: "", line: 0), label: nil)
            )
        }
    }

    /// Takes in the next event; returns `true` once the selection is found for good (no later
    /// event can change it), so the caller can stop reading.
    package mutating func consume(_ event: TraceEvent) -> Bool {
        events += 1
        switch event.kind {
        case .updated(_, _, _?), .fired(_, _, _?): recordsValues = true
        default: break
        }
        switch selection {
        case .event(let sequence):
            if event.sequence == sequence { found = WhyTarget(event: sequence) }
            // Found: read on a little only to learn whether the trace records values.
            if let found { return recordsValues || event.sequence > found.event + Self.valueLookahead }
        case .output(let match, let occurrence):
            return tally(event, match: match, occurrence: occurrence)
        case .closure(let site):
            trackClosures(event, site: site)
        }
        return false
    }

    /// The event to explain, or why there is none.
    package func result() -> Result<WhyTarget, WhySelectionError> {
        selectedResult().map { target in
            var target = target
            target.traceRecordsValues = recordsValues
            return target
        }
    }

    private func selectedResult() -> Result<WhyTarget, WhySelectionError> {
        switch selection {
        case .event(let sequence):
            if let found { return .success(found) }
            return .failure(WhySelectionError(description: "there is no event \(sequence) (the trace has \(events))"))
        case .output(let match, let occurrence):
            return outputResult(match, occurrence)
        case .closure(let site):
            if let found { return .success(found) }
            if bindsAtSite > 0 {
                return .failure(
                    WhySelectionError(
                        description:
                            "the subscription bound at \(site) never received a value after its bind (\(Narrator.count(events, "event")))"
                    ))
            }
            let sameFile = seenSites.filter { Self.file($0.file, matches: site.file) }.sorted().prefix(5)
            let known =
                sameFile.isEmpty
                ? "no bind in a file named \(site.file)"
                : "binds in that file: " + sameFile.map { "line \($0.line)" }.joined(separator: ", ")
            return .failure(
                WhySelectionError(
                    description: "nothing was bound at \(site) (\(known); \(Narrator.count(events, "event")))"))
        }
    }

    /// Counts the updates of the Outputs an Output selection may mean; true once an `--nth` of an
    /// id is found (a label may still be given to another Output later, so a label reads to the end).
    private mutating func tally(_ event: TraceEvent, match: WhyOutputMatch, occurrence: WhyOccurrence) -> Bool {
        switch event.kind {
        case .outputCreated(let creation):
            if let label = creation.label, seenLabels.count < Self.sampleLimit { seenLabels.insert(label) }
            let made = WhyOutput(
                id: creation.output, kind: creation.kind, valueType: creation.valueType, site: creation.site,
                label: creation.label)
            switch match {
            case .id(let id): if creation.output == id { tallies[id]?.output = made }
            case .label: tallies[creation.output] = UpdateTally(output: made)
            }
        case .labeled(let output, let label):
            if seenLabels.count < Self.sampleLimit { seenLabels.insert(label) }
            tallies[output]?.output.label = label
        case .released(let output):
            // An id's tally stays: its updates count whatever the trace says of its life.
            guard case .label = match, let tally = tallies.removeValue(forKey: output) else { break }
            if Self.tally(tally, matches: match) { releasedMatches.append(tally) }
        case .updated(let output, _, _), .fired(let output, _, _):
            guard var tally = tallies[output] else { break }
            tally.updates += 1
            tally.last = event.sequence
            if case .nth(let k) = occurrence, tally.updates == k { tally.nth = event.sequence }
            tallies[output] = tally
            if case .id = match, case .nth(let k) = occurrence, tally.updates == k { return true }
        default: break
        }
        return false
    }

    private static func tally(_ tally: UpdateTally, matches match: WhyOutputMatch) -> Bool {
        switch match {
        case .id(let id): tally.output.id == id && tally.updates > 0
        case .label(let label): tally.output.label == label
        }
    }

    /// The update an Output selection names. Several Outputs with the label: the one updated last
    /// is explained, and the note names the others and how to pick one.
    private func outputResult(
        _ match: WhyOutputMatch, _ occurrence: WhyOccurrence
    ) -> Result<WhyTarget, WhySelectionError> {
        let matches = (releasedMatches + tallies.values.filter { Self.tally($0, matches: match) })
            .sorted { $0.output.id < $1.output.id }
        let name: String
        switch match {
        case .id(let id): name = "Output #\(id)"
        case .label(let label): name = "'\(Narrator.shortened(label))'"
        }
        if case .label(let label) = match, matches.isEmpty {
            let nearest = Self.nearest(to: label, in: seenLabels).map { "'\(Narrator.shortened($0))'" }
            let known = nearest.isEmpty ? "no Output has a label" : "nearest labels: " + nearest.joined(separator: ", ")
            return .failure(
                WhySelectionError(
                    description: "no Output is labelled \(name) (\(known); \(Narrator.count(events, "event")))"))
        }
        let updated = matches.filter { $0.updates > 0 }
        guard let chosen = updated.max(by: { ($0.last ?? 0) < ($1.last ?? 0) }) else {
            let subject = matches.count > 1 ? "none of the \(matches.count) Outputs labelled \(name)" : name
            return .failure(
                WhySelectionError(description: "\(subject) was never updated (\(Narrator.count(events, "event")))"))
        }
        let note = matches.count > 1 ? Self.note(chosen: chosen, among: matches, label: name) : nil
        switch occurrence {
        case .last:
            return .success(WhyTarget(event: chosen.last ?? 0, note: note))
        case .nth(let k):
            guard let event = chosen.nth else {
                let which = matches.count > 1 ? "\(name) (Output #\(chosen.output.id))" : name
                return .failure(
                    WhySelectionError(
                        description:
                            "\(which) was updated \(Narrator.count(UInt64(chosen.updates), "time")); there is no update \(k)"
                            + (note.map { " (\($0))" } ?? "")))
            }
            return .success(WhyTarget(event: event, note: note))
        }
    }

    /// `5 Outputs are labelled 'status': explaining #12 …, the one updated last; the others: …`.
    private static func note(chosen: UpdateTally, among matches: [UpdateTally], label: String) -> String {
        let others = matches.filter { $0.output.id != chosen.output.id }
        let listed = others.prefix(5).map { other in
            "#\(other.output.id) made at \(other.output.site) (\(Narrator.count(UInt64(other.updates), "update")))"
        }
        let more = others.count > 5 ? ", and \(others.count - 5) more" : ""
        return "\(matches.count) Outputs are labelled \(label); explaining Output #\(chosen.output.id) made at "
            + "\(chosen.output.site), the one updated last; the others: \(listed.joined(separator: ", "))\(more); "
            + "pick one with --output-id ID"
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
