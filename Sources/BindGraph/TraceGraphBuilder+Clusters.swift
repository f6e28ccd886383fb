@_spi(Harness) import BindAnalysis
import BindTraceModel

/// Which box a node goes in (by file, by module, or none) and the boxes drawn.
extension TraceGraphBuilder {
    func resolveClustering(_ state: GraphState, drawsSubscribers: Bool) -> Clustering {
        guard clustering == .automatic else { return clustering }
        guard drawsSubscribers else { return .none }
        var files = Set(state.outputs.map(\.site.file))
        for subscription in state.subscriptions where !subscription.isInternal {
            files.insert(subscription.site.file)
            if files.count > 1 { break }
        }
        return files.count > 1 ? .file : .none
    }

    func clusterKey(_ site: SourceSite, _ clustering: Clustering) -> String? {
        switch clustering {
        case .file: site.file
        case .module: site.module.isEmpty ? site.file : site.module
        case .none, .automatic: nil
        }
    }

    func clusters(_ nodes: [GraphDocument.Node], clustering: Clustering) -> [GraphDocument.Cluster] {
        var keys: [String] = []
        var seen: Set<String> = []
        for node in nodes {
            if let key = node.cluster, seen.insert(key).inserted { keys.append(key) }
        }
        return keys.sorted().map { key in
            key == TraceGraphStyle.legendCluster
                ? .init(key: key, title: "Legend", fillColor: .white, borderColor: TraceGraphStyle.clusterBorder)
                : .init(
                    key: key, title: key, fillColor: TraceGraphStyle.clusterFill,
                    borderColor: TraceGraphStyle.clusterBorder)
        }
    }
}
