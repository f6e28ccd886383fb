// swift-tools-version: 6.1
// libFuzzer targets for Bind, built against the main package (the directory above) by path.
// Fuzz/run.sh builds them with `-sanitize=fuzzer,address` and runs each on its corpus.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, which differs between clones
// (`/work/main`, a CI checkout, a worktree): find it instead of spelling it.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let mainIdentity = mainPackage.lastPathComponent.lowercased()

// gold fails on libFuzzer's runtime next to SwiftPM's `--defsym main=…` (an internal error in its
// DWARF reader); lld from the Swift toolchain links it.
let fuzzerLinking: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

/// Targets for libraries that land on main later: added once their sources are there, so this
/// package builds from any checkout of the main package (run.sh says which it skipped).
var optionalTargets: [Target] = []
let fileManager = FileManager.default
func mainHas(_ path: String) -> Bool {
    fileManager.fileExists(atPath: mainPackage.appendingPathComponent(path).path)
}
if mainHas("Sources/BindAnalysis/Replay/Replay.swift") && mainHas("Sources/BindAnalysis/Analyzer/TraceAnalyzer.swift") {
    optionalTargets.append(
        .executableTarget(
            name: "FuzzAnalysis",
            dependencies: ["FuzzSupport", .product(name: "BindAnalysis", package: mainIdentity)],
            linkerSettings: fuzzerLinking
        ))
}
if mainHas("Sources/BindGraph/GraphLabel.swift") && mainHas("Sources/BindReport/HTML/HTMLBuilder.swift") {
    optionalTargets.append(
        .executableTarget(
            name: "FuzzLabels",
            dependencies: [
                "FuzzSupport",
                .product(name: "BindGraph", package: mainIdentity),
                .product(name: "BindReport", package: mainIdentity),
            ],
            linkerSettings: fuzzerLinking
        ))
}

let package = Package(
    name: "BindFuzz",
    dependencies: [.package(path: mainPackage.path)],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzerDriver", .product(name: "BindTraceModel", package: mainIdentity)]
        ),
        .executableTarget(
            name: "FuzzTraceReader",
            dependencies: ["FuzzSupport", .product(name: "BindTraceModel", package: mainIdentity)],
            linkerSettings: fuzzerLinking
        ),
    ] + optionalTargets,
    swiftLanguageModes: [.v6]
)
