import BindAnalysis

/// A finding a team knows about and accepts for now, so a leak check can be adopted on an
/// existing code base and still catch every new problem.
///
/// ```swift
/// @Test(.bindingLeakCheck(accepting: [.init(kind: .leakedSubscription, site: "App/Cell.swift:42")]))
/// func cellShowsTitle() { … }
/// ```
public struct AcceptedFinding: Hashable, Sendable, CustomStringConvertible {
    /// The kind of finding accepted, such as `.leakedSubscription`.
    public var kind: Finding.Kind
    /// The `#fileID` of the site: `App/Cell.swift`.
    public var file: String
    /// The line, or `nil` to accept the kind anywhere in `file`.
    public var line: UInt?

    /// Accepts findings of `kind` at `site`: `"App/Cell.swift:42"`, or `"App/Cell.swift"` for any line.
    public init(kind: Finding.Kind, site: String) {
        self.kind = kind
        if let colon = site.lastIndex(of: ":"), let line = UInt(site[site.index(after: colon)...]) {
            self.file = String(site[..<colon])
            self.line = line
        } else {
            self.file = site
            self.line = nil
        }
    }

    /// Accepts findings of `kind` in the file with the `#fileID` `file` (`"App/Cell.swift"`), at `line`
    /// or, when it is `nil`, at any line.
    public init(kind: Finding.Kind, file: String, line: UInt? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
    }

    /// Whether this accepts `finding`.
    public func accepts(_ finding: Finding) -> Bool {
        guard finding.kind == kind, let site = finding.site, site.file == file else { return false }
        return line == nil || line == site.line
    }

    /// The kind and site, as a leak check names them: `leaked-subscription at App/Cell.swift:42`.
    public var description: String { "\(kind.rawValue) at \(file)\(line.map { ":\($0)" } ?? "")" }
}
