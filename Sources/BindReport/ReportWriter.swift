import BindText

/// Writes the report files for a trace: `index.html`, `junit.xml` and `findings.sarif`.
///
/// The directory is replaced as a whole: the files are written into a new directory beside it, which
/// then takes its place, so no reader ever sees a half-written file or files of two runs. A killed
/// process leaves at most a hidden `.NAME.new-…` directory beside the report.
///
/// ```swift
/// try ReportWriter.write(content, to: "build/bind-report")
/// if FailOn.warning.fails(content.findings) { exit(1) }
/// ```
@_spi(Harness) public enum ReportWriter {
    /// The names of the files written, in the order they are written.
    public static let fileNames = ["junit.xml", "findings.sarif", "index.html"]

    /// Writes every report file into `directory`, creating it when needed.
    ///
    /// - Parameters:
    ///   - content: what to show.
    ///   - directory: where to write; its parents are created. An existing directory is replaced when it
    ///     holds only report files, and refused otherwise.
    ///   - options: how much a big trace embeds, and how sites map to repository paths.
    /// - Throws: ``ReportWriteError`` naming the file or directory that could not be written.
    public static func write(_ content: ReportContent, to directory: String, options: ReportOptions = ReportOptions())
        throws(ReportWriteError)
    {
        let files = [
            ("junit.xml", junit(content)), ("findings.sarif", sarif(content, options: options)),
            ("index.html", html(content, options: options)),
        ]
        do {
            try AtomicFile.replaceDirectory(directory, names: Set(fileNames)) { (fresh) throws(FileWriteFailure) in
                for (name, text) in files { try AtomicFile.write(text, to: fresh + "/" + name) }
            }
        } catch {
            throw ReportWriteError(error, directory: directory)
        }
    }

    /// The self-contained HTML page.
    public static func html(_ content: ReportContent, options: ReportOptions = ReportOptions()) -> String {
        HTMLReport(content: content, limits: options.limits, toolVersion: options.toolVersion).render()
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
@_spi(Harness) public struct ReportOptions: Hashable, Sendable {
    /// How much of a big trace `index.html` embeds.
    package var limits: ReportLimits
    /// How SARIF maps `Module/File.swift` to repository paths.
    public var sources: SourceLocationMapping
    /// The `bind-trace` version shown in the HTML header and recorded in SARIF; `nil` leaves it out.
    public var toolVersion: String?

    public init(sources: SourceLocationMapping = SourceLocationMapping(), toolVersion: String? = nil) {
        self.init(limits: ReportLimits(), sources: sources, toolVersion: toolVersion)
    }

    package init(
        limits: ReportLimits, sources: SourceLocationMapping = SourceLocationMapping(), toolVersion: String? = nil
    ) {
        self.limits = limits
        self.sources = sources
        self.toolVersion = toolVersion
    }
}

/// Why a report could not be written.
@_spi(Harness) public enum ReportWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    init(_ failure: FileWriteFailure, directory: String) {
        switch failure.operation {
        case .createDirectory, .replaceDirectory: self = .cannotCreateDirectory(path: directory, reason: failure.reason)
        case .write:
            // Name the file as the user will find it, not the temporary directory it was written in.
            let name = failure.path.split(separator: "/").last.map(String.init) ?? failure.path
            self = .cannotWrite(
                path: (directory.hasSuffix("/") ? directory : directory + "/") + name, reason: failure.reason)
        }
    }

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "\(path): cannot write the report directory: \(reason)"
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
        }
    }
}
