/// Writes the report files for a trace: `index.html`, `junit.xml` and `findings.sarif`.
///
/// Each file is written atomically (to a temporary file in the same directory, then renamed), so a
/// process killed half way never leaves a half-written file that looks whole. `junit.xml` and
/// `findings.sarif` are written first and `index.html` last: a directory with an `index.html`
/// holds a complete report.
///
/// ```swift
/// try ReportWriter.write(content, to: "build/bind-report")
/// exit(FailOn.warning.exitStatus(for: content.findings))
/// ```
public enum ReportWriter {
    /// The names of the files written, in the order they are written.
    public static let fileNames = ["junit.xml", "findings.sarif", "index.html"]

    /// Writes every report file into `directory`, creating it when needed.
    ///
    /// - Parameters:
    ///   - content: what to show.
    ///   - directory: where to write; created with its parents, existing report files are replaced.
    ///   - options: how much a big trace embeds, and how sites map to repository paths.
    /// - Throws: ``ReportWriteError`` naming the file that could not be written.
    public static func write(_ content: ReportContent, to directory: String, options: ReportOptions = ReportOptions())
        throws(ReportWriteError)
    {
        try AtomicFile.createDirectory(directory)
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        try AtomicFile.write(junit(content), to: base + "junit.xml")
        try AtomicFile.write(sarif(content, options: options), to: base + "findings.sarif")
        try AtomicFile.write(html(content, options: options), to: base + "index.html")
    }

    /// The self-contained HTML page.
    public static func html(_ content: ReportContent, options: ReportOptions = ReportOptions()) -> String {
        HTMLReport(content: content, limits: options.limits).render()
    }

    /// The JUnit XML document.
    public static func junit(_ content: ReportContent) -> String {
        JUnitReport(content: content).render()
    }

    /// The SARIF 2.1.0 document.
    public static func sarif(_ content: ReportContent, options: ReportOptions = ReportOptions()) -> String {
        SARIFReport(content: content, sources: options.sources, toolVersion: options.toolVersion).render()
    }
}

/// How reports are written.
public struct ReportOptions: Hashable, Sendable {
    /// How much of a big trace `index.html` embeds.
    public var limits: ReportLimits
    /// How SARIF maps `Module/File.swift` to repository paths.
    public var sources: SourceLocationMapping
    /// The `bind-trace` version recorded in SARIF, if known.
    public var toolVersion: String?

    public init(
        limits: ReportLimits = ReportLimits(), sources: SourceLocationMapping = SourceLocationMapping(),
        toolVersion: String? = nil
    ) {
        self.limits = limits
        self.sources = sources
        self.toolVersion = toolVersion
    }
}
