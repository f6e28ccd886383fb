/// The plain variant: Bind exactly as users get it, against the limit and OpenCombine.
enum PlainRun {
    static let speedSection =
        "Speed — plain Bind vs the limit (closure array) and OpenCombine 0.14; ns per operation, median"
    static let memorySection = "Memory — bytes per subscription (glibc mallinfo2 deltas)"

    static func run(harness: Harness, sink: Sink) -> Results {
        var results = Results()
        for speedCase in SpeedCases.all { measure(speedCase, harness: harness, sink: sink, into: &results) }
        for memoryCase in MemoryCase.all { measure(memoryCase, into: &results) }
        results.rows += Contention.rows(quick: harness.settings.rounds < 100)
        return results
    }

    private static func measure(_ speedCase: SpeedCase, harness: Harness, sink: Sink, into results: inout Results) {
        var contestants = [
            Contestant(name: "limit", run: speedCase.limit(sink)),
            Contestant(name: "Bind", run: speedCase.bind(sink)),
        ]
        if let openCombine = speedCase.openCombine {
            contestants.append(Contestant(name: "OpenCombine", run: openCombine(sink)))
        }
        let timings = harness.measure(contestants)
        let bind = timings.median("Bind")
        let limit = timings.median("limit")
        let overLimit = timings.ratio("Bind", to: "limit")
        results.record("speed.\(speedCase.id).bind_ns", bind)
        results.record("speed.\(speedCase.id).limit_ns", limit)
        results.record("speed.\(speedCase.id).bind_over_limit", overLimit)
        results.add(
            Row(
                section: speedSection, name: speedCase.title, measured: "Bind \(Format.ns(bind))",
                against: "limit \(Format.ns(limit))", ratio: "\(Format.times(overLimit)) limit",
                target: speedCase.limitTarget.map { "≤ \(Format.number($0))× limit" } ?? "—",
                met: speedCase.limitTarget.map { Format.verdict(overLimit <= $0) } ?? ""))
        guard speedCase.openCombine != nil else { return }
        let openCombine = timings.median("OpenCombine")
        let speedup = timings.ratio("OpenCombine", to: "Bind")
        results.record("speed.\(speedCase.id).opencombine_ns", openCombine)
        results.add(
            Row(
                section: speedSection,
                name: speedCase.openCombineHasOperator ? "  vs OpenCombine" : "  vs OpenCombine (by hand)",
                measured: "", against: "OpenCombine \(Format.ns(openCombine))", ratio: Format.speedup(speedup),
                target: speedCase.openCombineHasOperator
                    ? speedCase.openCombineTarget.map { "≥ \(Format.number($0))× faster" } ?? "—" : "— (no operator)",
                met: speedCase.openCombineHasOperator
                    ? speedCase.openCombineTarget.map { Format.verdict(speedup >= $0) } ?? "" : ""))
    }

    private static func measure(_ memoryCase: MemoryCase, into results: inout Results) {
        let target = 2.0
        for keep in [true, false] {
            let bind = memoryCase.bind(keep: keep)
            let limit = memoryCase.limit(keep: keep)
            let ratio = bind / limit
            let handling = keep ? "Subscriptions kept" : "Subscriptions discarded"
            results.record("memory.\(memoryCase.perOutput).\(keep ? "kept" : "discarded").bind", bind)
            results.record("memory.\(memoryCase.perOutput).\(keep ? "kept" : "discarded").limit", limit)
            results.add(
                Row(
                    section: memorySection, name: "\(memoryCase.title), \(handling)",
                    measured: "Bind \(Format.bytes(bind))", against: "limit \(Format.bytes(limit))",
                    ratio: "\(Format.times(ratio)) limit", target: "≤ \(Format.number(target))× limit",
                    met: Format.verdict(ratio <= target)))
            guard keep else { continue }
            if let openCombine = memoryCase.openCombine() {
                results.add(
                    Row(
                        section: memorySection, name: "  vs OpenCombine (AnyCancellable kept)", measured: "",
                        against: "OpenCombine \(Format.bytes(openCombine))",
                        ratio: "\(Format.times(openCombine / bind)) less", target: "—"))
            } else if memoryCase.perOutput > 1_000 {
                results.add(
                    Row(
                        section: memorySection, name: "  vs OpenCombine", measured: "",
                        against: "not run: O(n²) subscribe", target: "—"))
            }
        }
    }
}

extension Format {
    /// "7.50× faster" when `speedup` ≥ 1, else "1.30× slower".
    static func speedup(_ speedup: Double) -> String {
        speedup >= 1 ? "Bind \(times(speedup)) faster" : "Bind \(times(1 / speedup)) slower"
    }
}
