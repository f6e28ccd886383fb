import BindAnalysis
import BindText

/// Renders `junit.xml`: each finding kind is a check that CI systems show as tests.
///
/// Each kind becomes a `<testsuite>`. A kind without findings has one passing test case; a kind
/// with findings has one failing test case per finding (most JUnit consumers show only one
/// `<failure>` per test case), named by its site and carrying `file` and `line` attributes. A finding
/// the baseline accepts is `<skipped>`, not failed and not passed. A note (`redundant-update`,
/// `stopped-combine`) passes, its text in `<system-out>`: it never fails a run.
struct JUnitReport {
    let content: ReportContent

    func render() -> String {
        let byKind = Dictionary(grouping: content.findings, by: \.kind)
        let kinds = Finding.Kind.allCases
        let total = kinds.reduce(0) { $0 + max(1, byKind[$1]?.count ?? 0) }
        let skipped = content.findings.filter(content.isBaselined).count
        let notes = content.findings.filter { $0.severity == .note && !content.isBaselined($0) }.count
        let failures = content.findings.count - skipped - notes
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"bind-trace\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"0\" "
        xml += "skipped=\"\(skipped)\">\n"
        for kind in kinds {
            let findings = byKind[kind] ?? []
            let kindSkipped = findings.filter(content.isBaselined).count
            let kindFailures = kind.severity == .note ? 0 : findings.count - kindSkipped
            xml += "  <testsuite name=\"\(Escape.xml(kind.rawValue))\" tests=\"\(max(1, findings.count))\" "
            xml += "failures=\"\(kindFailures)\" errors=\"0\" skipped=\"\(kindSkipped)\">\n"
            xml +=
                "    <properties><property name=\"trace\" value=\"\(Escape.xml(content.traceFile))\"/></properties>\n"
            if findings.isEmpty {
                xml += "    <testcase classname=\"bind-trace.\(kind.rawValue)\" name=\"no \(kind.rawValue)\"/>\n"
                xml += "  </testsuite>\n"
                continue
            }
            for finding in findings {
                let site = finding.site?.description ?? "unknown site"
                var attributes =
                    "classname=\"bind-trace.\(kind.rawValue)\" name=\"\(Escape.xml("\(kind.rawValue) at \(site)"))\""
                if let file = finding.site?.file, let line = finding.site?.line {
                    attributes += " file=\"\(Escape.xml(file))\" line=\"\(line)\""
                }
                xml += "    <testcase \(attributes)>\n"
                if content.isBaselined(finding) {
                    let message = "in the baseline: \(finding.message)"
                    xml += "      <skipped message=\"\(Escape.xml(message))\"/>\n    </testcase>\n"
                    continue
                }
                var body = finding.compilerStyle
                for related in finding.related { body += "\n  \(related.site): note: \(related.note)" }
                body += "\n\(kind.explanation)"
                if let index = content.findings.firstIndex(of: finding) {
                    let why = finding.whyCommand(
                        trace: content.trace(ofFindingAt: index), fingerprint: FindingFingerprint.of(finding))
                    body += "\nExplain it: \(why)"
                }
                if finding.severity == .note {
                    xml += "      <system-out>\(Escape.xml(body))</system-out>\n    </testcase>\n"
                    continue
                }
                xml += "      <failure type=\"\(kind.rawValue)\" message=\"\(Escape.xml(finding.message))\">"
                xml += Escape.xml(body)
                xml += "</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}
