/// One line of the table. Every column is text already formatted, so other tools (the hooks in
/// `run.sh`) can add rows by writing the same tab-separated format:
///
///     row <TAB> section <TAB> case <TAB> measured <TAB> against <TAB> ratio <TAB> target <TAB> met
///
/// Lines starting with `raw` carry one number (`raw <TAB> key <TAB> value`) for a later run to read;
/// the table ignores them.
struct Row {
    var section: String
    var name: String
    var measured: String
    var against: String = ""
    var ratio: String = ""
    var target: String = ""
    var met: String = ""

    var tsv: String {
        (["row", section, name, measured, against, ratio, target, met]
            .map { $0.replacing("\t", with: " ") }).joined(separator: "\t")
    }

    init(
        section: String, name: String, measured: String, against: String = "", ratio: String = "",
        target: String = "", met: String = ""
    ) {
        self.section = section
        self.name = name
        self.measured = measured
        self.against = against
        self.ratio = ratio
        self.target = target
        self.met = met
    }

    init?(tsv line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.first == "row", fields.count >= 4 else { return nil }
        let padded = fields + [String](repeating: "", count: max(0, 8 - fields.count))
        self.init(
            section: padded[1], name: padded[2], measured: padded[3], against: padded[4], ratio: padded[5],
            target: padded[6], met: padded[7])
    }
}

/// What a run prints: rows, and raw numbers for the runs after it.
struct Results {
    var rows: [Row] = []
    var raw: [(key: String, value: Double)] = []

    mutating func add(_ row: Row) { rows.append(row) }
    mutating func record(_ key: String, _ value: Double) { raw.append((key, value)) }

    var tsv: String {
        (rows.map(\.tsv) + raw.map { "raw\t\($0.key)\t\($0.value)" }).joined(separator: "\n") + "\n"
    }

    /// The raw numbers of a file written by an earlier run.
    static func rawValues(ofTSV text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count == 3, fields[0] == "raw", let value = Double(fields[2]) {
                values[String(fields[1])] = value
            }
        }
        return values
    }
}

/// Formats numbers the same way everywhere in the table.
enum Format {
    static func ns(_ value: Double) -> String { "\(number(value)) ns" }
    static func bytes(_ value: Double) -> String { "\(number(value)) B" }
    static func times(_ value: Double) -> String { "\(fixed(value, digits: 2))×" }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "—" }
        if abs(value) >= 100 { return fixed(value, digits: 0) }
        if abs(value) >= 10 { return fixed(value, digits: 1) }
        return fixed(value, digits: 2)
    }

    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if text.hasSuffix(".0") && digits == 0 { text.removeLast(2) }
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        } else if digits > 0 {
            text += "." + String(repeating: "0", count: digits)
        }
        return text
    }

    static func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }
}

/// Prints the rows of every results file as one table, a heading line per section.
enum TablePrinter {
    static func print(files: [String: String], order: [String]) {
        var rows: [Row] = []
        for name in order {
            guard let text = files[name] else { continue }
            rows += text.split(separator: "\n").compactMap(Row.init(tsv:))
        }
        let header = Row(
            section: "", name: "case", measured: "measured", against: "against", ratio: "ratio",
            target: "target", met: "met")
        let columns: [(Row) -> String] = [
            { "  " + $0.name }, \.measured, \.against, \.ratio, \.target, \.met,
        ]
        var widths = columns.map { column in
            (rows + [header]).map { column($0).count }.max() ?? 0
        }
        widths[0] = max(widths[0], header.name.count)
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.count) }
                .joined(separator: " | ").replacing(/\s+$/, with: "")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")
        Swift.print(line(["case"] + columns.dropFirst().map { $0(header) }))
        Swift.print(rule)
        var section: String?
        for row in rows {
            if row.section != section {
                section = row.section
                Swift.print(row.section)
            }
            Swift.print(line(columns.map { $0(row) }))
        }
    }
}
