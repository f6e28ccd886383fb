import BindAnalysis
@_spi(Harness) import BindGraph

// The site graph of both runs in one picture (`bind-trace diff --svg FILE`), drawn by BindGraph's
// renderer (libgvc): what HEAD added in green, what it removed in red and dashed, grown sites in
// orange with their counts, the rest pale; a legend says which is which. Labels are plain text:
// the renderer escapes them.

extension RunDiff {
    /// How a site or edge of the picture changed.
    enum Change {
        case added, removed, grown, changed, unchanged
    }

    /// The union of both runs' site graphs, drawn by change: the changed sites and their neighbours,
    /// or with `showsUnchanged` every site (a big app's picture is mostly unchanged sites).
    package func graphDocument(showsUnchanged: Bool = false) -> GraphDocument {
        var document = GraphDocument(
            title: "bind-trace diff: \(base.name) → \(head.name)", direction: .leftToRight, legend: Self.legend)
        var ids: [DiffSite: String] = [:]
        let added = Set(addedSites)
        let removed = Set(removedSites)
        let changes = Dictionary(changedSites.map { ($0.site, $0) }, uniquingKeysWith: { first, _ in first })
        var sites = Set(added).union(removed)
        for output in head.profile.outputs.keys { sites.insert(.output(output)) }
        for binding in head.profile.bindings.keys { sites.insert(.binding(binding)) }
        if !showsUnchanged {
            sites = changedNeighbourhood(of: sites)
            document.legend?.title += " (unchanged sites away from a change not drawn)"
        }
        for site in sites.sorted() {
            let id = "s\(ids.count)"
            ids[site] = id
            let change: Change =
                added.contains(site)
                ? .added
                : removed.contains(site)
                    ? .removed : changes[site].map { $0.grown.isEmpty ? .changed : .grown } ?? .unchanged
            var lines = ["\(site.location.file):\(site.location.line)"]
            if let change = changes[site] {
                let metrics = change.grown.isEmpty ? Array(change.changedMetrics.prefix(2)) : change.grown
                lines += metrics.map { "\($0.name) \(change.base[$0]) → \(change.head[$0]) (\(change.ratioText($0)))" }
            }
            // A subscription hangs from its Output's node: its own title need not repeat the Output's name.
            var node =
                if case .binding(let binding) = site {
                    GraphDocument.Node(id: id, title: binding.subscriberName, lines: lines, shape: .note)
                } else {
                    GraphDocument.Node(id: id, title: site.name, lines: lines)
                }
            Self.style(&node, change)
            document.nodes.append(node)
        }
        // Bindings hang from their Output; operators' edges join Outputs.
        for site in sites.sorted() {
            guard case .binding(let binding) = site, let from = ids[.output(binding.output)], let to = ids[site]
            else { continue }
            let change: Change = added.contains(site) ? .added : removed.contains(site) ? .removed : .unchanged
            document.edges.append(Self.edge(from: from, to: to, label: nil, change))
        }
        let addedEdges = Set(addedEdges)
        let removedEdges = Set(removedEdges)
        for edge in head.profile.edges.union(removedEdges).sorted() {
            guard let from = ids[.output(edge.source)], let to = ids[.output(edge.derived)] else { continue }
            let change: Change =
                addedEdges.contains(edge) ? .added : removedEdges.contains(edge) ? .removed : .unchanged
            document.edges.append(Self.edge(from: from, to: to, label: edge.operation.description, change))
        }
        return document
    }

    /// Among `sites`, the changed ones (added, removed, counts changed) and the sites one edge or
    /// binding away from them; all of `sites` when nothing changed.
    private func changedNeighbourhood(of sites: Set<DiffSite>) -> Set<DiffSite> {
        let changed = Set(addedSites).union(removedSites).union(changedSites.map(\.site))
        var kept = changed
        for edge in head.profile.edges.union(base.profile.edges) {
            let ends: [DiffSite] = [.output(edge.source), .output(edge.derived)]
            if ends.contains(where: changed.contains) || addedEdges.contains(edge) || removedEdges.contains(edge) {
                kept.formUnion(ends)
            }
        }
        for site in sites {
            guard case .binding(let binding) = site else { continue }
            if changed.contains(site) || changed.contains(.output(binding.output)) {
                kept.insert(site)
                kept.insert(.output(binding.output))
            }
        }
        return kept.isEmpty ? sites : kept.intersection(sites)
    }

    private static func style(_ node: inout GraphDocument.Node, _ change: Change) {
        switch change {
        case .added:
            node.fillColor = .paleGreen
            node.borderColor = .green
            node.style.insert(.bold)
        case .removed:
            node.fillColor = .paleRed
            node.borderColor = .red
            node.style.insert(.dashed)
        case .grown:
            node.fillColor = .paleYellow
            node.borderColor = .orange
            node.style.insert(.bold)
        case .changed:
            node.fillColor = .paleBlue
        case .unchanged:
            node.fillColor = .paleGray
            node.fontColor = .gray
        }
    }

    private static func edge(from: String, to: String, label: String?, _ change: Change) -> GraphDocument.Edge {
        switch change {
        case .added: GraphDocument.Edge(from: from, to: to, label: label, style: .bold, color: .green, penWidth: 2)
        case .removed: GraphDocument.Edge(from: from, to: to, label: label, style: .dashed, color: .red)
        default: GraphDocument.Edge(from: from, to: to, label: label, color: .gray)
        }
    }

    private static var legend: GraphDocument.Legend {
        func sample(_ label: String, _ change: Change) -> GraphDocument.Legend.NodeSample {
            var node = GraphDocument.Node(id: "", title: label)
            style(&node, change)
            return .init(label: label, style: node.style, fillColor: node.fillColor, borderColor: node.borderColor)
        }
        return GraphDocument.Legend(
            title: "Changes since BASE",
            nodes: [
                sample("added in HEAD", .added), sample("removed since BASE", .removed),
                sample("grown (past the threshold)", .grown), sample("counts changed", .changed),
                sample("unchanged", .unchanged),
            ],
            edges: [
                .init(label: "edge added", style: .bold, color: .green, penWidth: 2),
                .init(label: "edge removed", style: .dashed, color: .red),
                .init(label: "unchanged", color: .gray),
            ])
    }
}
