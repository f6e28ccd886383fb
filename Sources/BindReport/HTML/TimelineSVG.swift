import BindText

/// Draws the marble timeline: one small inline SVG per Output on a shared time axis.
///
/// SVG attributes position the marbles, so the page needs no inline `style=` (which the
/// Content-Security-Policy forbids). Tooltips are SVG `<title>`s: text, escaped like all text.
struct TimelineSVG {
    let rows: [TimelineRow]
    let maxMarbles: Int
    let start: UInt64
    let end: UInt64

    private static let height = 30.0

    init(rows: [TimelineRow], maxMarbles: Int) {
        self.rows = rows
        self.maxMarbles = maxMarbles
        let times = rows.flatMap { $0.updates.map(\.time) }
        start = times.min() ?? 0
        end = max(times.max() ?? 0, start + 1)
    }

    /// Where `time` is across the lane, in percent (2 % margins so edge marbles stay whole).
    private func position(_ time: UInt64) -> Double {
        let fraction = Double(time - start) / Double(end - start)
        return 2 + fraction * 96
    }

    private func x(_ time: UInt64) -> String { percent(position(time)) }

    private func percent(_ value: Double) -> String {
        "\((value * 100).rounded() / 100)%"
    }

    // Percentages rather than a viewBox: the lane stretches with the page and marbles stay round.
    private func open(_ extraClass: String = "") -> String {
        "<svg class=\"\(extraClass)\" height=\"\(Int(Self.height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">"
    }

    /// The time axis with five labelled ticks.
    func axis() -> String {
        var svg = open("axis")
        for step in 0...4 {
            let time = start + (end - start) * UInt64(step) / 4
            let position = x(time)
            let anchor = step == 0 ? "start" : step == 4 ? "end" : "middle"
            svg += "<line x1=\"\(position)\" y1=\"20\" x2=\"\(position)\" y2=\"30\"></line>"
            svg += "<text x=\"\(position)\" y=\"14\" text-anchor=\"\(anchor)\">"
            svg += Escape.htmlText(ReportNumber.duration(nanoseconds: time)) + "</text>"
        }
        return svg + "</svg>"
    }

    /// `map · 12 updates` or `map · 4,000 updates in 20 buckets`.
    func caption(for row: TimelineRow) -> String {
        let count = "\(ReportNumber.grouped(row.totalUpdates)) update\(row.totalUpdates == 1 ? "" : "s")"
        guard row.updates.count > maxMarbles else {
            return row.totalUpdates > row.updates.count
                ? "\(row.kind) · \(count) (\(row.updates.count) sampled)" : "\(row.kind) · \(count)"
        }
        return "\(row.kind) · \(count), grouped in time buckets"
    }

    /// One row's lane: a marble per update, or per time bucket when there are too many.
    func lane(for row: TimelineRow) -> String {
        let middle = Self.height / 2
        var svg = open()
        svg += "<line class=\"lane-line\" x1=\"0\" y1=\"\(middle)\" x2=\"100%\" y2=\"\(middle)\"></line>"
        if row.updates.count <= maxMarbles {
            for update in row.updates {
                var tip = "#\(update.sequence) at \(ReportNumber.duration(nanoseconds: update.time))"
                if let preview = update.preview { tip += ": \(preview)" }
                svg += "<circle class=\"marble\" cx=\"\(x(update.time))\" cy=\"\(middle)\" r=\"6\">"
                svg += "<title>\(Escape.htmlText(tip))</title></circle>"
            }
            return svg + "</svg>"
        }
        // Too many to read one by one: count them in equal time buckets.
        let bucketCount = maxMarbles
        var buckets = [[TimelineRow.Update]](repeating: [], count: bucketCount)
        let span = end - start
        for update in row.updates {
            let index = min(bucketCount - 1, Int(Double(update.time - start) / Double(span) * Double(bucketCount)))
            buckets[index].append(update)
        }
        let scale = Double(row.totalUpdates) / Double(max(1, row.updates.count))
        for bucket in buckets where !bucket.isEmpty {
            let first = bucket.first!
            let last = bucket.last!
            let count = Int((Double(bucket.count) * scale).rounded())
            let approximate = scale > 1 ? "about " : ""
            var tip = "\(approximate)\(ReportNumber.grouped(count)) updates, #\(first.sequence)–#\(last.sequence), "
            tip += "\(ReportNumber.duration(nanoseconds: first.time))–\(ReportNumber.duration(nanoseconds: last.time))"
            if let preview = last.preview { tip += "; last value: \(preview)" }
            let center = percent((position(first.time) + position(last.time)) / 2)
            let radius = 9.0
            svg += "<g><title>\(Escape.htmlText(tip))</title>"
            svg += "<circle class=\"marble bucket\" cx=\"\(center)\" cy=\"\(middle)\" r=\"\(radius)\"></circle>"
            svg += "<text class=\"marble-count\" x=\"\(center)\" y=\"\(middle)\">\(compact(count))</text></g>"
        }
        return svg + "</svg>"
    }

    /// `7`, `42`, `1.2k`, `15k`, `3M`: fits in a marble.
    private func compact(_ count: Int) -> String {
        switch count {
        case ..<1_000: String(count)
        case ..<10_000: "\(count / 1_000).\(count % 1_000 / 100)k"
        case ..<1_000_000: "\(count / 1_000)k"
        default: "\(count / 1_000_000)M"
        }
    }
}
