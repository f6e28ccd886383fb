@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// What an event looks like on the timeline: its name, category and annotations.
struct Drawing {
    let name: String
    let category: String
    var annotations: [TimelineAnnotation]

    func event(_ phase: TimelineEvent.Phase, at time: UInt64, on track: TimelineTrack) -> TimelineEvent {
        TimelineEvent(phase: phase, time: time, track: track, name: name, category: category, annotations: annotations)
    }
}

extension TimelineBuilder {
    /// How `kind` is drawn, with the names things have before it is applied (a release still knows
    /// its Output's label); `nil` for what the timeline leaves out: the graph's structure (edges,
    /// flatMap switches, labels, containers) and kinds it does not know.
    func describe(_ kind: TraceEvent.Kind) -> Drawing? {
        switch kind {
        case .updated(let output, let cause, let preview), .fired(let output, let cause, let preview):
            let verb = if case .updated = kind { "update" } else { "fire" }
            // The Output's site is in the name: not repeated on every update.
            var annotations = outputAnnotations(output, site: false)
            if let preview { annotations.append(TimelineAnnotation("value", Narrator.shortened(preview))) }
            if let cause { annotations.append(TimelineAnnotation("cause_event", cause.event)) }
            return Drawing(name: "\(verb) \(outputName(output))", category: verb, annotations: annotations)
        case .bound(let binding):
            var annotations = [
                TimelineAnnotation("subscription", binding.subscription),
                TimelineAnnotation("site", Narrator.shortened(binding.site.description)),
            ]
            annotations += outputAnnotations(binding.output, site: false)
            if binding.scope != 0 { annotations.append(TimelineAnnotation("scope", binding.scope)) }
            let what = binding.isInternal ? "operator" : Narrator.what(target: binding.target)
            let name = "bind \(what) at \(Narrator.place(binding.site)) to \(outputName(binding.output))"
            return Drawing(name: name, category: "bind", annotations: annotations)
        case .unbound(let subscription, let reason, _):
            let name = replay.subscriptionState(subscription).map(Narrator.name(of:)) ?? "subscription \(subscription)"
            return Drawing(
                name: "unbind \(name)", category: "unbind",
                annotations: [
                    TimelineAnnotation("subscription", subscription), TimelineAnnotation("reason", "\(reason)"),
                ])
        case .dangling(let subscription):
            let name = replay.subscriptionState(subscription).map(Narrator.name(of:)) ?? "subscription \(subscription)"
            return Drawing(
                name: "dangling delivery to \(name)", category: "unbind",
                annotations: [TimelineAnnotation("subscription", subscription)])
        case .handleReleased(let subscription):
            let name = replay.subscriptionState(subscription).map(Narrator.name(of:)) ?? "subscription \(subscription)"
            return Drawing(
                name: "handle released: \(name)", category: "unbind",
                annotations: [TimelineAnnotation("subscription", subscription)])
        case .outputCreated(let creation):
            let name = Narrator.name(
                kind: creation.kind, valueType: creation.valueType, site: creation.site, label: creation.label)
            var annotations = [
                TimelineAnnotation("output", creation.output),
                TimelineAnnotation("site", Narrator.shortened(creation.site.description)),
            ]
            if creation.scope != 0 { annotations.append(TimelineAnnotation("scope", creation.scope)) }
            return Drawing(name: "create \(name)", category: "create", annotations: annotations)
        case .released(let output):
            return Drawing(
                name: "release \(outputName(output))", category: "release", annotations: outputAnnotations(output))
        case .scopeBegan(let id, _, let name, let site):
            return Drawing(
                name: "scope '\(Narrator.shortened(name))'", category: "scope",
                annotations: [
                    TimelineAnnotation("scope", id), TimelineAnnotation("site", Narrator.shortened(site.description)),
                ])
        case .mark(let name, let scope):
            var annotations: [TimelineAnnotation] = []
            if scope != 0 { annotations.append(TimelineAnnotation("scope", scope)) }
            return Drawing(name: "mark '\(Narrator.shortened(name))'", category: "mark", annotations: annotations)
        default:
            return nil
        }
    }

    /// `'title' (String) at Login.swift:12`, `map → String at Feed.swift:12`: the label and the line.
    func outputName(_ id: UInt64) -> String {
        if let name = outputNames[id] { return name }
        guard let state = replay.outputState(id) else { return Narrator.unknownOutput(id) }
        var name = Narrator.name(of: state)
        if state.label != nil { name += " at \(Narrator.place(state.site))" }
        outputNames[id] = name
        return name
    }

    /// Drops the remembered name of an Output that `kind` renames or (re)creates.
    func forgetName(changedBy kind: TraceEvent.Kind) {
        switch kind {
        case .labeled(let output, _): outputNames[output] = nil
        case .outputCreated(let creation): outputNames[creation.output] = nil
        default: break
        }
    }

    /// The Output's id and, when known, its creation site.
    private func outputAnnotations(_ id: UInt64, site: Bool = true) -> [TimelineAnnotation] {
        var annotations = [TimelineAnnotation("output", id)]
        if site, let state = replay.outputState(id) {
            annotations.append(TimelineAnnotation("output_site", Narrator.shortened(state.site.description)))
        }
        return annotations
    }

    /// The closure slice's name: `closure bound at View.swift:20`, `Binder to Label bound at …`.
    func closureName(_ subscription: UInt64) -> String {
        if let name = subscriptionNames[subscription] { return name }
        guard let state = replay.subscriptionState(subscription) else { return "subscription \(subscription)" }
        let name = Narrator.name(of: state)
        subscriptionNames[subscription] = name
        return name
    }
}
