// Fuzz target (b): replay and every finding detector on decoded events.
//
// Events come from `EventProgram` (a compact encoding of event sequences over a few ids) or, for
// inputs starting with the trace magic, from the reader. Whatever the history — unbinding what was
// never bound, releasing twice, cycles, causes into nowhere — the replay must record trace errors,
// never crash or hang, and keep its own books straight.
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import FuzzSupport
import Glibc

runFuzzer { bytes in
    let events = EventProgram.events(from: bytes)
    let choice = bytes.last ?? 0
    // FUZZ_DUMP=1: the decoded events, to read a finding's input (flushed: a leak report exits at once).
    if getenv("FUZZ_DUMP") != nil {
        for event in events { print(event) }
        print("options byte", choice)
        fflush(nil)
    }
    let options = AnalysisOptions(
        atExit: choice & 1 != 0,
        focusScope: choice & 2 != 0 ? UInt64(choice >> 4 & 3) : nil,
        keepsReleasedOutputs: choice & 4 != 0,
        stateAt: choice & 8 != 0 ? UInt64(choice >> 2) % UInt64(events.count + 1) : nil,
        maximumTraceErrors: 5)

    // Step by step, looking at the state between events.
    let replay = Replay(options: options)
    for (index, event) in events.enumerated() {
        replay.apply(event)
        require(replay.lastSequence == event.sequence, "lastSequence \(replay.lastSequence) after \(event.sequence)")
        if index % max(events.count / 8, 1) == 0 || index == events.count - 1 {
            let state = replay.snapshot()
            let live = state.outputs.filter { !$0.isReleased }.count
            require(
                live == replay.liveOutputCount,
                "snapshot has \(live) live Outputs, replay counts \(replay.liveOutputCount)")
            require(
                state.subscriptions.count == replay.boundSubscriptionCount,
                "snapshot has \(state.subscriptions.count) subscriptions, replay counts \(replay.boundSubscriptionCount)"
            )
            for edge in state.edges where !options.keepsReleasedOutputs {
                _ = edge  // edges may name Outputs the trace never created: only the counts are promised
            }
        }
    }
    require(replay.errors.count <= options.maximumTraceErrors, "kept \(replay.errors.count) trace errors")
    require(replay.errorCount >= replay.errors.count, "errorCount \(replay.errorCount) < \(replay.errors.count)")
    let findings = replay.finish()
    require(replay.finish() == findings, "finish() is not idempotent")
    let last = events.last?.sequence ?? 0
    for finding in findings {
        require(finding.event <= last, "finding at event \(finding.event) after the last event \(last)")
        _ = finding.compilerStyle
    }

    // The one-call analyzer agrees with the step-by-step replay.
    let result = TraceAnalyzer.analyze(events: events, options: options)
    require(result.findings == findings, "analyze(events:) found \(result.findings.count), replay \(findings.count)")
    require(
        result.summary.events == UInt64(events.count),
        "summary counts \(result.summary.events) events of \(events.count)")
    require(result.traceErrors == replay.errors, "trace errors differ between analyze and replay")
}
