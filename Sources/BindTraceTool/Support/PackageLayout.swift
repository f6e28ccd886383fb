import Foundation

/// Where a package's test targets' sources are, read from its directory tree.
///
/// A site is recorded as `#fileID` (`AppTests/CellTests.swift`): the module, not the directory.
/// SwiftPM puts a test target in `Tests/<Target>`; a target with another path (`path:` in its
/// manifest) still needs `--module-path`.
enum PackageLayout {
    /// `Module → Tests/Module` for each directory under `root/Tests` with no `Sources/Module` beside it.
    static func testTargetPaths(root: String) -> [String: String] {
        let files = FileManager.default
        let rootURL = URL(fileURLWithPath: root, isDirectory: true)
        let tests = rootURL.appendingPathComponent("Tests", isDirectory: true)
        guard let names = try? files.contentsOfDirectory(atPath: tests.path) else { return [:] }
        var paths: [String: String] = [:]
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: tests.appendingPathComponent(name).path, isDirectory: &isDirectory),
                isDirectory.boolValue,
                !files.fileExists(atPath: rootURL.appendingPathComponent("Sources").appendingPathComponent(name).path)
            else { continue }
            paths[name] = "Tests/\(name)"
        }
        return paths
    }
}
