import ArgumentParser
@_spi(Harness) import BindReport
import BindText
import Foundation

/// Known findings that do not fail the run: read with `--baseline FILE`, written with
/// `--write-baseline FILE`. A JSON file listing each finding's ``FindingFingerprint`` with its kind,
/// site and message (for people reviewing the file; only the fingerprint is matched).
struct Baseline {
    static let formatName = "bind-trace-baseline"

    let fingerprints: Set<String>

    /// Reads the baseline at `path`.
    /// - Throws: ``ToolFailure`` naming the file when it cannot be read or is not a baseline.
    static func read(_ path: String) throws(ToolFailure) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolFailure("\(path): cannot read the baseline")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["format"] as? String == formatName, let findings = object["findings"] as? [[String: Any]]
        else {
            throw ToolFailure("\(path): not a bind-trace baseline (write one with --write-baseline)")
        }
        return Baseline(fingerprints: Set(findings.compactMap { $0["fingerprint"] as? String }))
    }

    /// Writes every finding of `run` as the baseline at `path` (atomically).
    static func write(_ findings: [MergedFinding], to path: String) throws(ToolFailure) {
        let entries: [JSONValue] = findings.map { merged in
            var members: [(String, JSONValue)] = [
                ("fingerprint", .string(merged.fingerprint)), ("kind", .string(merged.finding.kind.rawValue)),
            ]
            if let site = merged.finding.site {
                members += [("file", .string(site.file)), ("line", .uint(UInt64(site.line)))]
            }
            members.append(("message", .string(merged.finding.message)))
            return .object(members)
        }
        let document: JSONValue = .object([
            ("format", .string(formatName)), ("version", .int(1)),
            ("fingerprints", .string("kind, site and what the finding is about; stable across runs")),
            ("findings", .array(entries)),
        ])
        do {
            try AtomicFile.write(document.prettyText + "\n", to: path)
        } catch {
            throw ToolFailure("\(path): cannot write the baseline: \(error.reason)")
        }
    }

    func contains(_ finding: MergedFinding) -> Bool { fingerprints.contains(finding.fingerprint) }
}

/// `--baseline` and `--write-baseline`, for `check` and `report`.
struct BaselineOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Findings listed in this baseline file are reported as known and do not fail the run.",
            valueName: "file"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Write every finding of this run to a baseline file (then only new findings fail later runs).",
            valueName: "file"))
    var writeBaseline: String?

    func read() throws(ToolFailure) -> Baseline? {
        try baseline.map { (path) throws(ToolFailure) in try Baseline.read(path) }
    }
}
