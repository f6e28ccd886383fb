import BindTraceModel

/// Something the analysis could not judge and the user may want to know: not a finding (it fails
/// no gate), a line to look at with why.
///
/// Today: a bind made on a thread that runs no trace scope while scoped work runs on another —
/// work handed to an `OperationQueue`, a `Thread`, a `Timer` or a callback without its scope, whose
/// leaks no scope can judge (docs/analysis.md, "Scopes across threads").
public struct AnalysisNote: Hashable, Sendable {
    /// The line the note is about.
    public var site: SourceSite
    /// One line, without the site.
    public var message: String
    /// The sequence number of the first event it is about.
    public var event: UInt64

    @_spi(Harness) public init(site: SourceSite, message: String, event: UInt64) {
        self.site = site
        self.message = message
        self.event = event
    }

    /// `Module/File.swift:42: note: …`, as compilers print notes.
    public var compilerStyle: String { "\(site.file):\(site.line): note: \(message)" }
}
