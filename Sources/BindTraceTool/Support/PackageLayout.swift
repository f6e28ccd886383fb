import Foundation

/// Where a package's targets' sources are, so that SARIF names the files that exist.
///
/// A site is recorded as `#fileID` (`SignInSample/Views.swift`): the module, not the directory.
/// The package knows each target's directory (`path:` in its manifest, or SwiftPM's default):
/// ``targetPaths(root:)`` asks `swift package describe --type json`. Without `swift` (or when it
/// fails), ``testTargetPaths(root:)`` reads the tree: test targets under `Tests/`, everything else
/// under `Sources/`; `--module-path` still overrides either.
enum PackageLayout {
    /// The package a report is about: the nearest directory holding `Package.swift`, looking first
    /// up from each of `directories` in order (the current directory, then each trace's).
    static func root(searching directories: [String]) -> String? {
        let files = FileManager.default
        for start in directories {
            var directory = URL(fileURLWithPath: start, isDirectory: true).standardizedFileURL
            while true {
                if files.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                    return directory.path
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }

    /// Where `modules` are in the package at `root`: `swift package describe` when one of them has no
    /// `Sources/<Module>` directory (SwiftPM's default, which needs no asking), else nothing to
    /// add; the tree's test targets when `swift` cannot tell.
    static func modulePaths(root: String, modules: Set<String>) -> [String: String] {
        let sources = URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent("Sources")
        let unknown = modules.filter { module in
            var isDirectory: ObjCBool = false
            return !FileManager.default.fileExists(
                atPath: sources.appendingPathComponent(module).path, isDirectory: &isDirectory)
                || !isDirectory.boolValue
        }
        if unknown.isEmpty { return [:] }
        return targetPaths(root: root) ?? testTargetPaths(root: root)
    }

    /// `Module → path` (relative to `root`) for every target of the package at `root`, from
    /// `swift package describe --type json`; nil when `swift` cannot be run or says nothing usable.
    /// A module is named as `#fileID` names it (the target's C99 name: `My-App` is `My_App`).
    static func targetPaths(root: String, timeout: TimeInterval = 120) -> [String: String]? {
        guard let data = describe(root: root, timeout: timeout),
            let package = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = package["targets"] as? [[String: Any]]
        else { return nil }
        var paths: [String: String] = [:]
        for target in targets {
            guard let path = target["path"] as? String else { continue }
            let module = (target["c99name"] as? String) ?? (target["name"] as? String)
            if let module { paths[module] = path }
        }
        return paths.isEmpty ? nil : paths
    }

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

    /// Runs `swift package describe --type json` in `root` (found on `PATH`); its standard output,
    /// or nil when it cannot be started, fails or takes longer than `timeout`.
    private static func describe(root: String, timeout: TimeInterval) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "describe", "--type", "json"]
        process.currentDirectoryURL = URL(fileURLWithPath: root, isDirectory: true)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        // A package whose dependencies are not resolved may make SwiftPM fetch them: past the
        // timeout the child is killed (its pid is still ours: it is not reaped until waited for).
        let finished = DispatchSemaphore(value: 0)
        let pid = process.processIdentifier
        Thread.detachNewThread {
            if finished.wait(timeout: .now() + timeout) == .timedOut { kill(pid, SIGKILL) }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        finished.signal()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return data
    }
}
