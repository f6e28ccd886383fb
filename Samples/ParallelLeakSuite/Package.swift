// swift-tools-version: 6.1
import PackageDescription

// A user's test suite, run in parallel many times by `Scripts/parallel-suite.sh` (`make test-parallel-suite`):
// a package of its own that depends on Bind by path with its `Tracing` trait, so that a parallel run of it
// builds and runs only these tests, never Bind's own suite.
let package = Package(
    name: "ParallelLeakSuite",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Bind", path: "../..", traits: ["Tracing"])
    ],
    targets: [
        // The app under test: a shared cart store and the screens that show it.
        .target(name: "Shop", dependencies: [.product(name: "Bind", package: "Bind")]),
        .testTarget(
            name: "ShopTests",
            dependencies: [
                "Shop", .product(name: "Bind", package: "Bind"), .product(name: "BindTesting", package: "Bind"),
            ]
        ),
        .testTarget(
            name: "ShopXCTests",
            dependencies: [
                "Shop", .product(name: "Bind", package: "Bind"), .product(name: "BindTesting", package: "Bind"),
                .product(name: "BindAnalysis", package: "Bind"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
