import Foundation

/// Finds the file path of a recorded `#fileID` (`App/Cell.swift`), so an IDE can open the line.
///
/// `#fileID` has no directories. Starting from a file path known to be in the package (the
/// test's own), it walks up to the directory holding `Package.swift` and looks for
/// `<Module>/…/<File>` below it, preferring `Sources/` and `Tests/`. Results are cached.
enum SourcePaths {
    private static let cache = Cache()

    /// The best path for `fileID`; `fileID` itself when nothing matches.
    static func filePath(for fileID: String, near anchor: String) -> String {
        let key = "\(fileID)|\(anchor)"
        if let cached = cache.value(for: key) { return cached }
        let resolved = resolve(fileID, near: anchor) ?? fileID
        cache.set(resolved, for: key)
        return resolved
    }

    private static func resolve(_ fileID: String, near anchor: String) -> String? {
        let parts = fileID.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        let (module, file) = (parts[0], parts[1])
        let fileManager = FileManager.default
        var directory = (anchor as NSString).deletingLastPathComponent
        var root: String?
        while directory.count > 1 {
            if fileManager.fileExists(atPath: directory + "/Package.swift") {
                root = directory
                break
            }
            directory = (directory as NSString).deletingLastPathComponent
        }
        guard let root else { return nil }
        for candidate in ["Sources/\(module)/\(file)", "Tests/\(module)/\(file)"]
        where fileManager.fileExists(atPath: "\(root)/\(candidate)") {
            return "\(root)/\(candidate)"
        }
        // Subdirectories and custom target paths: search, skipping build folders and hidden ones.
        guard let walker = fileManager.enumerator(atPath: root) else { return nil }
        var fallback: String?
        var visited = 0
        while let relative = walker.nextObject() as? String, visited < 50_000 {
            visited += 1
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "node_modules" {
                walker.skipDescendants()
                continue
            }
            guard name == (file as NSString).lastPathComponent, relative.hasSuffix("/" + file) || relative == file
            else { continue }
            if relative.contains("/\(module)/") || relative.hasPrefix("\(module)/") { return "\(root)/\(relative)" }
            fallback = fallback ?? "\(root)/\(relative)"
        }
        return fallback
    }

    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: String] = [:]

        func value(for key: String) -> String? { lock.withLock { values[key] } }
        func set(_ value: String, for key: String) { lock.withLock { values[key] = value } }
    }
}
