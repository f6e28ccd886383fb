// swift-tools-version: 6.1
import PackageDescription

// The import graph reads like the pipeline (docs/architecture.md draws it), with the format as the leaf
// both sides share:
//   CBindCore, CBindTrace, BindTraceFormat → Bind (app runtime; the recorder with the trait Tracing)
//   BindTraceFormat → BindTraceModel (reader) → BindAnalysis (replay, findings), then one module per thing
//   made of an analysis: BindGraph (pictures) → BindDiff (two runs) → BindReport (HTML, JUnit, SARIF; also
//   after BindGraph), BindLive (serve's live view), BindExport (Perfetto, Chrome JSON) → bind-trace.
// BindText (escaping, shortening, JSON, atomic files) is the reader side's leaf: BindTraceModel, BindAnalysis
// and every module after them import it. Only BindTesting joins the two sides (Bind + BindAnalysis).
let package = Package(
    name: "Bind",
    platforms: [.macOS(.v13), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    // docs/architecture.md, "Products and their public API", says what each is for and why it is public.
    products: [
        // Supported: the library an app links, its test helpers, the analysis API for programs that judge
        // traces themselves (`TraceAnalyzer.analyze(path:)`; `import BindAnalysis` is all of it), and the tool.
        .library(name: "Bind", targets: ["Bind"]),
        .library(name: "BindTesting", targets: ["BindTesting"]),
        .library(name: "BindAnalysis", targets: ["BindAnalysis"]),
        .executable(name: "bind-trace", targets: ["BindTraceTool"]),
        // Not supported: only for this repository's harness packages, which depend on this one by path and
        // reach the machinery through `@_spi(Harness) import` (SPI is no promise to users). The fuzzers of
        // Fuzz/ read traces (BindTraceModel) and write graphs and reports from hostile labels (BindGraph,
        // BindReport); Benchmarks/ times the Graphviz renderer (BindGraph).
        .library(name: "BindTraceModel", targets: ["BindTraceModel"]),
        .library(name: "BindGraph", targets: ["BindGraph"]),
        .library(name: "BindReport", targets: ["BindReport"]),
    ],
    traits: [
        .trait(
            name: "Tracing",
            description: "Record every Output's life, bind, update, fire and unbind into a trace."
        ),
        // `bind-trace serve`: the live report over HTTP (SwiftNIO). On by default; `--traits Tracing` and
        // `--disable-default-traits` leave it out, so the instrumented and sanitizer builds never build NIO.
        .trait(name: "Serve", description: "Build `bind-trace serve` (the live report over HTTP, with SwiftNIO)."),
        .default(enabledTraits: ["Serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.2"),
        // `make docs` (swift package generate-documentation): a command plugin, built only when it runs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Thread-local state and the clock for the recorder; linked only into the Tracing build.
        .target(name: "CBindTrace", dependencies: ["CBindCore"]),
        // The per-thread depth of operator cascades, so deep chains never overflow the stack; in the build
        // without the trait, the line that says BIND_TRACE is ignored (UntracedEnvironment.c).
        .target(name: "CBindCore", cSettings: [.define("BIND_TRACING", .when(traits: ["Tracing"]))]),
        // The trace format: record tags, fields, encoder and decoder. A leaf: recorder and reader share it.
        // EventKinds.toml is the table Scripts/generate-event-kinds.py writes the per-kind code from.
        .target(name: "BindTraceFormat", exclude: ["EventKinds.toml"]),
        .target(
            name: "Bind",
            dependencies: [
                "CBindCore", "BindTraceFormat", .target(name: "CBindTrace", condition: .when(traits: ["Tracing"])),
            ]
        ),
        .target(name: "BindTraceModel", dependencies: ["BindTraceFormat", "BindText"]),
        // The reader side never depends on `Bind`, so `bind-trace` built with `--traits Tracing` holds no recorder.
        // BindTraceModel re-exports BindTraceFormat (its public API is built on `OutputKind`, `UnbindReason`), and
        // BindAnalysis re-exports BindTraceModel (its results name `SourceSite`, `TraceReadError`, `TraceWarning`).
        .target(name: "BindAnalysis", dependencies: ["BindTraceModel", "BindText"]),
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        .target(name: "CGraphvizShim", dependencies: ["CGraphviz"]),
        // Text for people and files: every escaper (`Escape`), the one shortening rule (`Shorten`), the JSON
        // writer, the atomic file writer and the tool version, shared by the dump format, the analysis's
        // messages, graphs, reports and the CLI. A leaf.
        .target(name: "BindText"),
        .target(
            name: "BindGraph",
            dependencies: ["BindTraceModel", "BindAnalysis", "BindText", "CGraphviz", "CGraphvizShim"]
        ),
        // What changed between two runs (`bind-trace diff`): the comparison and its text, JSON, Markdown and
        // picture. The per-site counts ride the analysis's replay (BindAnalysis/Diff).
        .target(name: "BindDiff", dependencies: ["BindTraceModel", "BindAnalysis", "BindGraph", "BindText"]),
        // The report page's style sheet and script are real files (HTML/report.css, HTML/report.js), embedded at
        // build time as `HTMLAssets` by the EmbedPageAssets plugin: the binary needs no resource bundle beside it.
        .target(
            name: "BindReport",
            dependencies: ["BindTraceModel", "BindAnalysis", "BindGraph", "BindDiff", "BindText"],
            plugins: ["EmbedPageAssets"]),
        .executableTarget(name: "EmbedPageAssetsTool", path: "Plugins/EmbedPageAssetsTool"),
        .plugin(name: "EmbedPageAssets", capability: .buildTool(), dependencies: ["EmbedPageAssetsTool"]),
        // The live view `bind-trace serve` pushes to pages: traces followed as they grow, bounded state. No HTTP here.
        .target(name: "BindLive", dependencies: ["BindTraceModel", "BindAnalysis", "BindText"]),
        // Timelines for other engines (Perfetto protobuf, Chrome JSON), streamed from a trace.
        .target(name: "BindExport", dependencies: ["BindTraceModel", "BindAnalysis", "BindText"]),
        .target(name: "BindTesting", dependencies: ["Bind", "BindTraceModel", "BindAnalysis"]),
        .executableTarget(
            name: "BindTraceTool",
            dependencies: [
                "BindTraceModel", "BindAnalysis", "BindGraph", "BindReport", "BindText", "BindExport", "BindDiff",
                "BindLive", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // Only the tool serves, and only with the trait: `Bind` and the other targets never see NIO.
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Serve"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Serve"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Serve"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Serve"])),
            ]
        ),

        // Samples: headless MVVM programs that use Bind the way an app would.
        .executableTarget(name: "SignInSample", dependencies: ["Bind"], path: "Samples/SignInSample"),
        // The sample's own tests: the .bindingLeakCheck trait on the sample's screens.
        .testTarget(
            name: "SampleTests", dependencies: ["SignInSample", "Bind", "BindTesting"], path: "Samples/SampleTests"),

        // A program the trace tests run as a child process (then kill) to test crash safety.
        .executableTarget(name: "TraceFixture", dependencies: ["Bind"], path: "Tests/Fixtures/TraceFixture"),

        .testTarget(name: "BindTests", dependencies: ["Bind"]),
        // Sources/Bind/UIKit type-checked and tested on every platform: `Binders` links to those files, which
        // compile here against stand-ins for UIKit and WebKit. The stand-ins ship in no product.
        .target(name: "UIKitStandIn", path: "Tests/UIKitStandIn", exclude: ["README.md"]),
        .target(name: "WebKitStandIn", dependencies: ["UIKitStandIn"], path: "Tests/WebKitStandIn"),
        .testTarget(
            name: "BindUIKitTests",
            dependencies: ["Bind", "UIKitStandIn", "WebKitStandIn"],
            swiftSettings: [.define("BIND_UIKIT_STANDIN")]
        ),
        // Shared by the tests: writes traces with the format's own encoder, reads captures (each
        // checked for inconsistencies by the analysis's replay as it is read).
        .target(
            name: "BindTraceTestSupport", dependencies: ["Bind", "BindTraceFormat", "BindTraceModel", "BindAnalysis"],
            path: "Tests/BindTraceTestSupport"),
        .testTarget(
            name: "BindTraceModelTests",
            dependencies: ["Bind", "BindTraceFormat", "BindTraceModel", "BindTraceTestSupport"]),
        .testTarget(
            name: "BindAnalysisTests",
            dependencies: [
                "Bind", "BindTraceFormat", "BindTraceModel", "BindAnalysis", "BindTesting", "BindTraceTestSupport",
            ]),
        .testTarget(name: "BindGraphTests", dependencies: ["BindGraph", "BindAnalysis", "BindTraceModel"]),
        .testTarget(
            name: "BindReportTests",
            dependencies: [
                "Bind", "BindReport", "BindAnalysis", "BindTraceModel", "BindText", "BindTraceTestSupport",
            ]),
        .testTarget(name: "BindTestingTests", dependencies: ["Bind", "BindTesting", "BindTraceTestSupport"]),
        // App-shaped programs with planted bugs and their clean twins, judged at exact lines: in
        // process (captures) and as a recorded program judged by `bind-trace check --format json`.
        .executableTarget(name: "AppCorpus", dependencies: ["Bind"], path: "Tests/AppCorpus"),
        .testTarget(
            name: "AppCorpusTests",
            dependencies: [
                "AppCorpus", "Bind", "BindTraceModel", "BindAnalysis", "BindTesting", "BindTraceTestSupport",
            ]),
        .testTarget(name: "BindTextTests", dependencies: ["BindText"]),
        .testTarget(
            name: "BindLiveTests", dependencies: ["BindLive", "BindAnalysis", "BindTraceModel", "BindTraceTestSupport"]),
        .testTarget(
            name: "BindExportTests",
            dependencies: ["BindExport", "BindAnalysis", "BindTraceModel", "BindText", "BindTraceTestSupport"],
            // Read by `protoc --decode` in the tests, from the source tree.
            exclude: ["Support/perfetto_subset.proto"]),
        .testTarget(
            name: "BindTraceToolTests",
            dependencies: ["Bind", "BindTraceFormat", "BindTraceModel", "BindText", "BindTraceTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
