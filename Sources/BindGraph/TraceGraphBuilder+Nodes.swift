@_spi(Harness) import BindAnalysis
import BindText
import BindTraceModel

/// The nodes of the picture: an Output (or a ×N group of them), a subscriber group, and the edges drawn from them.
extension TraceGraphBuilder {
    func outputNode(
        _ group: OutputGrouping.Group, state: GraphState, marks: FindingMarks, subscribers: [UInt64: [SubscriberGroup]],
        drawsSubscribers: Bool, clustering: Clustering
    ) -> GraphDocument.Node {
        let members = group.members.compactMap { state.output($0) }
        let first = members[0]
        let count = members.count
        let look = TraceGraphStyle.look(for: first.kind)
        let kinds = marks.outputKinds(group.members)

        let name = first.label ?? (first.kind.isDerived ? "\(first.kind)" : Self.kindName(first.kind))
        let title = count > 1 ? "\(name) ×\(count)" : (first.label == nil ? "\(name) #\(first.id)" : name)
        var lines = [typeLine(first), siteLine(first.site, clustering: clustering)]
        let updates = members.reduce(UInt64(0)) { $0 &+ $1.updateCount }
        if count > 1 {
            lines.append("\(updates) update\(updates == 1 ? "" : "s") in all")
        } else {
            var line = "\(updates) update\(updates == 1 ? "" : "s")"
            // The first line of the value (labels are sanitised later by the renderer).
            if let preview = first.lastPreview { line += " · last " + Shorten.text(preview, to: 32, lines: .first) }
            lines.append(line)
        }
        if !drawsSubscribers {
            let bound = members.reduce(0) { total, output in
                total + (subscribers[output.id] ?? []).reduce(0) { $0 + $1.subscriptions.count }
            }
            if bound > 0 { lines.append("\(bound) subscriber\(bound == 1 ? "" : "s")") }
        }
        if first.isReleased { lines.append("released" + (first.releasedAt.map { " at event #\($0)" } ?? "")) }
        if first.isPreexisting { lines.append("created before the recording") }
        for kind in kinds.sorted() { lines.append("⚠ " + Self.findingWord(kind)) }

        var node = GraphDocument.Node(
            id: "", title: title, lines: lines, shape: look.shape, style: look.style, fillColor: look.fill,
            borderColor: look.border, tooltip: outputTooltip(members, marks: marks),
            cluster: clusterKey(first.site, clustering),
            faded: first.isReleased)
        if kinds.contains(.leakedOutput) || kinds.contains(.retainCycle) || kinds.contains(.feedbackCycle)
            || kinds.contains(.structuralCycle)
        {
            node.fillColor = TraceGraphStyle.findingFill
            node.borderColor = TraceGraphStyle.findingBorder
            node.style.insert(.bold)
        } else if !kinds.isEmpty {
            // Its subscriptions leaked: the Output itself is fine, so only its outline warns.
            node.borderColor = TraceGraphStyle.findingBorder
            node.style.insert(.bold)
        }
        node.id = group.nodeID
        return node
    }

    func subscriberNode(
        _ subscriber: SubscriberGroup, id: String, state: GraphState, marks: FindingMarks, onCycle: Bool,
        clustering: Clustering
    ) -> GraphDocument.Node {
        let count = subscriber.subscriptions.count
        let name = subscriber.key.targetType ?? "closure"
        var lines = [
            (subscriber.key.targetType == nil ? "bind { } · " : "Binder · ")
                + siteLine(subscriber.key.site, clustering: clustering)
        ]
        let kinds = marks.subscriptionKinds(subscriber.subscriptions).union(onCycle ? [.feedbackCycle] : [])
        if subscriber.isDangling { lines.append("⚠ target gone: dangling") }
        for kind in kinds.sorted() where kind != .danglingBinder { lines.append("⚠ " + Self.findingWord(kind)) }
        var node = GraphDocument.Node(
            id: id, title: count > 1 ? "\(name) ×\(count)" : name, lines: lines, shape: .box,
            style: [.filled, .rounded, .dashed], fillColor: TraceGraphStyle.subscriberFill,
            borderColor: TraceGraphStyle.subscriberBorder,
            tooltip: "\(count) subscription\(count == 1 ? "" : "s") bound at \(subscriber.key.site)"
                + (subscriber.key.targetType.map { " to a Binder of \($0)" } ?? "")
                + marks.messages(subscriptions: subscriber.subscriptions),
            cluster: clusterKey(subscriber.key.site, clustering))
        if subscriber.isDangling && !onCycle {
            node.fillColor = TraceGraphStyle.danglingFill
            node.borderColor = TraceGraphStyle.danglingBorder
            node.faded = true
        } else if !kinds.isEmpty {
            node.fillColor = TraceGraphStyle.findingFill
            node.borderColor = TraceGraphStyle.findingBorder
            node.style = [.filled, .rounded, .bold]
        }
        return node
    }

    func outputTooltip(_ members: [OutputState], marks: FindingMarks) -> String {
        var lines = members.prefix(8).map { "#\($0.id) \($0.displayName) \($0.kind) at \($0.site)" }
        if members.count > 8 { lines.append("… and \(members.count - 8) more") }
        return lines.joined(separator: "\n") + marks.messages(outputs: members.map(\.id))
    }

    func typeLine(_ output: OutputState) -> String {
        switch output.kind {
        case .output: "Output<\(output.valueType)>"
        case .relay: "Relay<\(output.valueType)>"
        default: "\(output.kind) → \(output.valueType)"
        }
    }

    /// `line 42` inside a file's box, `Screen.swift:42` elsewhere.
    func siteLine(_ site: SourceSite, clustering: Clustering) -> String {
        if clustering == .file { return "line \(site.line)" }
        let file = site.file.split(separator: "/").last.map(String.init) ?? site.file
        return "\(file):\(site.line)"
    }

    func edgeLabel(_ role: EdgeState.Role) -> String? {
        switch role {
        case .operator: nil
        case .currentInner: "current inner"
        case .pastInner: "past inner"
        }
    }

    func highlight(_ edge: inout GraphDocument.Edge) {
        edge.color = TraceGraphStyle.findingBorder
        edge.penWidth = 3
        edge.faded = false
    }

    func feedbackEdge(from: String, to: String, label: String) -> GraphDocument.Edge {
        let look = TraceGraphStyle.feedbackEdge
        return .init(
            from: from, to: to, label: label, style: look.style, color: look.color, penWidth: look.penWidth,
            arrowhead: look.arrowhead, tooltip: "feedback loop: this updates the next Output of the loop")
    }
}
