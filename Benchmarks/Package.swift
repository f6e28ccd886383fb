// swift-tools-version: 6.1
import PackageDescription

// The benchmarks are a package of their own so that Bind never depends on benchmark-only packages.
// `Benchmarks/run.sh` builds this package twice, each time into its own scratch path:
//   BIND_BENCH_VARIANT=plain          Bind as users get it (no traits), against the limit and OpenCombine;
//   BIND_BENCH_VARIANT=instrumented   Bind built with the `Tracing` trait (tracing off and on).
// A manifest can depend on one package only once, so the variant is chosen by the environment.
let instrumented = Context.environment["BIND_BENCH_VARIANT"] == "instrumented"

let package = Package(
    name: "BindBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Bind", path: "..", traits: instrumented ? ["Tracing"] : []),
        // Declared in both variants so Package.resolved stays the same; only the plain variant links it.
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // The clocks, the allocator statistics and an optimisation barrier, from C.
        .target(name: "CBenchSupport"),
        .executableTarget(
            name: "BindBenchmarks",
            dependencies: [
                "CBenchSupport",
                .product(name: "Bind", package: "Bind"),
            ]
                + (instrumented ? [] : [.product(name: "OpenCombine", package: "OpenCombine")]),
            swiftSettings: instrumented ? [.define("BIND_INSTRUMENTED")] : []
        ),
    ],
    swiftLanguageModes: [.v6]
)
