import BindAnalysis

// MARK: - The graph

extension HTMLReport {
    /// The graph: its caption, the image with node boxes over it, the hidden node details and the slider;
    /// or, for a report of several traces, their still pictures.
    func renderGraph(into page: inout HTMLBuilder) {
        page.raw("<section id=\"graph\"><h2>Graph</h2>")
        if content.graphSVG == nil && (!content.processGraphs.isEmpty || content.mergedGraphSVG != nil) {
            renderProcessGraphs(into: &page)
            return
        }
        guard let svg = content.graphSVG else {
            page.element("p", ["class": "note"], text: "No graph was rendered for this report.")
            page.raw("</section>\n")
            return
        }
        page.element(
            "p", ["class": "note"],
            text: "Scroll to zoom, drag to pan. Select a finding to outline its Outputs here; click an Output "
                + "to list its findings. The graph is embedded as an image, so nothing in it can run.")
        // What the picture shows; the slider rewrites it for the moment it shows.
        page.element(
            "p", ["id": "graph-caption", "class": "graph-caption"],
            text: content.graphCaption ?? "Outputs at the end (event #\(content.lastEvent))")
        page.raw(
            "<div class=\"graph-tools\"><button id=\"graph-zoom-in\" type=\"button\">Zoom in</button>"
                + "<button id=\"graph-zoom-out\" type=\"button\">Zoom out</button>"
                + "<button id=\"graph-reset\" type=\"button\">Reset</button></div>")
        // An SVG shown through <img> never runs script or loads anything, whatever Graphviz put in it.
        let cleaned = SVGCleaner.clean(svg)
        let source = "data:image/svg+xml;base64," + Base64.encode(Array(cleaned.utf8))
        // Focusable: + and - zoom, the arrows pan, 0 fits (the buttons do the same).
        page.raw("<div id=\"graph-viewport\" tabindex=\"0\" aria-label=\"Graph: + and - zoom, arrows pan, 0 fits\">")
        page.open(
            "img",
            ["id": "graph-image", "alt": "Graph of Outputs and subscriptions", "src": source, "draggable": "false"])
        // Highlights are drawn over the image: boxes at the nodes' places (numbers and our node ids only).
        let layout = GraphNodeBoxes(svg: cleaned)
        page.open(
            "div",
            [
                "id": "graph-overlay", "data-view-width": Self.number(layout.viewWidth),
                "data-view-height": Self.number(layout.viewHeight), "data-highlighted": "0",
            ])
        for box in layout.boxes {
            let place = [box.x, box.y, box.width, box.height].map(Self.number).joined(separator: " ")
            // A collapsed group ("g12") lives as its first member does.
            let life = UInt64(box.node.dropFirst()).flatMap { content.outputLifetimes[$0] }.map {
                "\($0.created) " + ($0.released.map(String.init) ?? "")
            }
            if GraphNodeBoxes.isSubscriberNode(box.node) {
                let subscriptions = content.subscriberNodes[box.node]?.map(String.init).joined(separator: " ")
                page.open(
                    "div",
                    [
                        "class": "node-box subscriber-box", "data-node": box.node, "data-box": place,
                        "data-subscriptions": subscriptions ?? "",
                    ])
            } else {
                page.open("div", ["class": "node-box", "data-node": box.node, "data-box": place, "data-life": life])
            }
            page.raw("</div>")
        }
        page.raw("</div></div>")
        // Filled by the script when a node is clicked: the findings about it, as links, and a copy of
        // its details below (built here from escaped text; the script only clones the elements).
        page.raw("<div id=\"node-panel\" class=\"node-panel\" hidden></div>")
        renderNodeDetails(boxes: layout.boxes, into: &page)
        if !content.outputLifetimes.isEmpty && content.lastEvent > 0 {
            // The slider redraws which Outputs were alive after an event; #at-N in the address sets it.
            let last = String(content.lastEvent)
            // It starts at the moment drawn: the end, or the busiest moment when nothing is alive at the end.
            let drawn = content.graphDrawnAt.map { min($0, content.lastEvent) } ?? content.lastEvent
            page.raw("<div class=\"graph-time\"><label for=\"graph-time\">Alive after event</label>")
            page.open(
                "input",
                [
                    "id": "graph-time", "type": "range", "min": "0", "max": last, "value": String(drawn), "step": "1",
                    "data-drawn": String(drawn),
                ])
            page.element(
                "output", ["id": "graph-time-label", "for": "graph-time"],
                text: "#\(drawn)" + (drawn == content.lastEvent ? " (the end)" : ""))
            page.raw("</div>")
        }
        page.raw("</section>\n")
    }

    /// Each Output node's details, hidden: its name and site, its updates and last value, its bindings.
    /// The search of findings matches their text too, to outline nodes by label or `File.swift:42`.
    private func renderNodeDetails(boxes: [GraphNodeBoxes.Box], into page: inout HTMLBuilder) {
        let moment = content.graphDrawnAt.map { "after event #\($0)" } ?? "at the end"
        page.raw("<div id=\"node-details\" hidden>")
        for box in boxes {
            guard let id = UInt64(box.node.dropFirst()), let detail = content.outputDetails[id] else { continue }
            page.open("div", ["class": "node-detail", "data-node": box.node])
            page.raw("<p class=\"node-name\">")
            page.text(detail.name)
            page.raw(" created at <code>")
            page.text(detail.site)
            page.raw("</code></p>")
            let count = "\(ReportNumber.grouped(detail.updates)) update\(detail.updates == 1 ? "" : "s")"
            page.element(
                "p", ["class": "node-updates"], text: count + (detail.lastValue.map { ", last value \($0)" } ?? ""))
            if !detail.recentUpdates.isEmpty {
                // Each a link to its event (#event-N): the page scrolls the table there and tells its chain.
                page.raw("<ol class=\"node-recent\">")
                for update in detail.recentUpdates {
                    page.raw("<li><a href=\"#event-\(update.sequence)\">event #\(update.sequence)</a>")
                    page.text(update.preview.map { ": \($0)" } ?? "")
                    page.raw("</li>")
                }
                page.raw("</ol>")
            }
            let more = detail.bindingCount - detail.bindings.count
            page.element(
                "p", ["class": "node-bindings-head"],
                text: detail.bindingCount == 0
                    ? "No binding to it \(moment)."
                    : "Bound \(moment) by \(detail.bindingCount) subscription\(detail.bindingCount == 1 ? "" : "s")"
                        + (more > 0 ? " (the first \(detail.bindings.count) listed):" : ":"))
            if !detail.bindings.isEmpty {
                page.raw("<ul class=\"node-bindings\">")
                for binding in detail.bindings { page.element("li", ["class": "mono"], text: binding) }
                page.raw("</ul>")
            }
            page.raw("</div>")
        }
        page.raw("</div>")
    }

    /// One still picture per process of a run (`<img>`, so nothing in them can run).
    private func renderProcessGraphs(into page: inout HTMLBuilder) {
        page.element(
            "p", ["class": "note"],
            text: "All processes in one graph, each Output merged with those created at the same line in the "
                + "other processes; then one graph per process, at its end (bind-trace graph TRACE draws one "
                + "to explore). Each is embedded as an image, so nothing in it can run.")
        if let merged = content.mergedGraphSVG {
            // Still: a finding's Output ids are its own process's, so there is nothing to outline by them.
            let source = "data:image/svg+xml;base64," + Base64.encode(Array(SVGCleaner.clean(merged).utf8))
            page.raw("<figure class=\"process-graph merged-graph\">")
            page.element("figcaption", text: "All processes, merged by creation site")
            page.open("img", ["alt": "Graph of all processes merged by creation site", "src": source])
            page.raw("</figure>")
        }
        for graph in content.processGraphs {
            let source = "data:image/svg+xml;base64," + Base64.encode(Array(SVGCleaner.clean(graph.svg).utf8))
            page.raw("<figure class=\"process-graph\">")
            page.element("figcaption", text: graph.trace)
            page.open("img", ["alt": "Graph of \(graph.trace)", "src": source])
            page.raw("</figure>")
        }
        page.raw("</section>\n")
    }
}
