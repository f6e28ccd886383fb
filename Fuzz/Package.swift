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

let package = Package(
    name: "BindFuzz",
    dependencies: [.package(path: mainPackage.path)],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        .executableTarget(
            name: "FuzzTraceReader",
            dependencies: ["FuzzSupport", .product(name: "BindTraceModel", package: mainIdentity)],
            linkerSettings: fuzzerLinking
        ),
    ],
    swiftLanguageModes: [.v6]
)
