/// Turns a recorded site's `#fileID` (`Module/File.swift`) into a SARIF artifact URI.
///
/// `#fileID` names the module and the file, not the directory: SARIF consumers need a path
/// relative to the repository. The default maps `App/Cell.swift` to `Sources/App/Cell.swift`
/// (SwiftPM's layout); ``modulePaths`` overrides it per module (`"AppTests": "Tests/AppTests"`), and
/// ``sourceRootURI`` (the command line's `--source-root`) is recorded as the base the paths are
/// relative to, under ``uriBaseID``. A module not mapped whose name ends in `Tests` is a test target,
/// under `Tests/` (SwiftPM's layout for test targets), so findings in tests name a path that exists.
///
/// ```swift
/// var sources = SourceLocationMapping(sourceRootURI: "file:///src/app/")
/// sources.modulePaths["SignInSample"] = "Samples/SignInSample"
/// ```
@_spi(Harness) public struct SourceLocationMapping: Hashable, Sendable {
    /// The repository directory of each module, relative to the source root.
    public var modulePaths: [String: String]
    /// The directory used for modules not in ``modulePaths`` (`Sources`).
    public var defaultParent: String
    /// An absolute `file://` URI of the source root, when known.
    public var sourceRootURI: String?
    /// The SARIF `uriBaseId` the URIs are relative to (`SRCROOT`); `nil` to write bare relative URIs.
    public var uriBaseID: String?

    public init(
        modulePaths: [String: String] = [:], defaultParent: String = "Sources", sourceRootURI: String? = nil,
        uriBaseID: String? = "SRCROOT"
    ) {
        self.modulePaths = modulePaths
        self.defaultParent = defaultParent
        self.sourceRootURI = sourceRootURI.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.uriBaseID = uriBaseID
    }

    /// The repository-relative URI for a `#fileID`: `App/Cell.swift` → `Sources/App/Cell.swift`.
    public func uri(for fileID: String) -> String {
        let parts = fileID.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return percentEncoded(fileID) }
        let module = String(parts[0])
        let parent = module.hasSuffix("Tests") && defaultParent == "Sources" ? "Tests" : defaultParent
        let directory = modulePaths[module] ?? (parent.isEmpty ? module : "\(parent)/\(module)")
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return percentEncoded(trimmed.isEmpty ? String(parts[1]) : "\(trimmed)/\(parts[1])")
    }

    /// RFC 3986: keeps unreserved characters and `/`, percent-encodes the rest.
    private func percentEncoded(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
