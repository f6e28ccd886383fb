import BindText
/// A finding's identity across runs: the same problem has the same fingerprint in every run and
/// process, and after edits elsewhere — for SARIF `partialFingerprints` and baselines.
///
/// Made of the kind, the site's file and line, what the finding is about (its message with
/// run-specific numbers such as Output ids `#41` removed, and without recorded values), and the
/// related sites (not those of context a partial trace adds); never event numbers.
///
/// ```swift
/// let known = Set(baseline.map(\.fingerprint))
/// let new = findings.filter { !known.contains(FindingFingerprint.of($0)) }
/// ```
package enum FindingFingerprint {
    /// The version prefix; a change of what goes into fingerprints changes it.
    package static let version = "v1"

    /// 32 hex digits identifying `finding`.
    package static func of(_ finding: Finding) -> String {
        var text = "\(version)|\(finding.kind.rawValue)|"
        if let site = finding.site { text += "\(site.file):\(site.line)" }
        text += "|" + aboutText(finding.identity ?? finding.message)
        let identifying = finding.related.filter { !$0.origin.isContext }
        for related in identifying.map({ "\($0.site.file):\($0.site.line)" }).sorted() { text += "|" + related }
        return SHA256.hash(Array(text.utf8)).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The message without numbers that change from run to run: `#41` (ids), `subscription 7`.
    static func aboutText(_ message: String) -> String {
        var result = ""
        var skippingDigits = false
        var previous: Character = " "
        for character in message {
            if character.isASCII && character.isNumber && (skippingDigits || previous == "#" || previous == " ") {
                skippingDigits = true
                continue
            }
            if skippingDigits { result.append("N") }
            skippingDigits = false
            result.append(character)
            previous = character
        }
        if skippingDigits { result.append("N") }
        return result
    }
}
