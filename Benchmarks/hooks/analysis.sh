#!/usr/bin/env bash
# Section 30 of `make bench` (run by Benchmarks/run.sh with the results directory as $1): how fast
# `bind-trace check` (read + replay + every finding) gets through a real 10M-event trace, and its
# peak memory, also on a 1M-event trace to show memory stays flat as the trace grows; then the same
# for `bind-trace why TRACE --output 'model 0'` (issue 28: under 2 s on 10M events, flat memory).
#
# The traces are recorded by Bind's own recorder: Benchmarks/Sources/TraceWorkload (built as the
# instrumented variant) runs an app-like workload with `BindTrace.startRecording(toFile:)`.
# `bind-trace` is built in release mode from the main package (scratch path .build-release).
# Time is CPU time (user + system, from /usr/bin/time), the median of three runs, and wall-clock time
# (the median of the same runs: `check` decodes on a second thread while it replays, so wall time is
# below CPU time on two cores); memory is the peak resident set size. Prints result rows (format: the
# HOOKS comment in run.sh).
set -euo pipefail

results="$1"
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/.." && pwd)"
SWIFT="${SWIFT:-swift}"
log="${BENCH_LOG:-$results/build.log}"
section="bind-trace analysis — events/s on a generated 10M-event trace, peak memory"
# Issue 30: 50 M events per CPU second (20 M until the seventh pass).
target_rate=50000000
# Issue 15: a 100M-event trace checked in under 10 s of wall time.
target_wall_rate=10000000
target_mb=100

row() {  # row CASE MEASURED AGAINST RATIO TARGET MET
    printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$section" "$1" "$2" "$3" "$4" "$5" "$6"
}
fail() {
    row "$1" "—" "" "" "" ""
    exit 0
}

echo "bench: building bind-trace (release) and the trace workload…" >&2
if ! "$SWIFT" build -c release --product bind-trace --package-path "$root" \
    --scratch-path "$root/.build-release" >>"$log" 2>&1; then
    echo "bench: the bind-trace build failed (see $log)" >&2
    fail "(bind-trace did not build)"
fi
if ! BIND_BENCH_VARIANT=instrumented "$SWIFT" build -c release --product TraceWorkload \
    --package-path "$here" --scratch-path "$here/.build-instrumented" >>"$log" 2>&1; then
    echo "bench: the TraceWorkload build failed (see $log)" >&2
    fail "(TraceWorkload did not build)"
fi
tool="$root/.build-release/release/bind-trace"
workload="$here/.build-instrumented/release/TraceWorkload"

# measure TRACE: prints "EVENTS CPU_SECONDS PEAK_KB WALL_SECONDS" (median CPU, peak, median wall of three runs).
measure() {
    local trace="$1" events="" runs=()
    for _ in 1 2 3; do
        local timing="$results/analysis-time.txt" out="$results/analysis-check.txt"
        # check exits 1 when it reports findings (the workload leaks on purpose).
        /usr/bin/time -f "%U %S %M %e" -o "$timing" "$tool" check "$trace" >"$out" 2>"$results/analysis-stderr.txt" || true
        # Its last line: "bind-trace: FILE: N findings (…) in EVENTS events".
        events="$(sed -n 's/.* in \([0-9]*\) events$/\1/p' "$out" | tail -1)"
        # The last line: /usr/bin/time first notes the exit status 1.
        runs+=("$(tail -n 1 "$timing" | awk '{ printf "%.3f %d %.3f\n", $1 + $2, $3, $4 }')")
    done
    [ -n "$events" ] || { echo "bench: bind-trace check printed no event count" >&2; return 1; }
    local walls
    walls="$(printf '%s\n' "${runs[@]}" | awk '{ print $3 }' | sort -n | sed -n 2p)"
    printf '%s\n' "${runs[@]}" | sort -n | awk -v events="$events" -v wall="$walls" \
        'NR == 2 { cpu = $1 } { if ($2 > peak) peak = $2 } END { print events, cpu, peak, wall }'
}

echo "bench: recording the 1M- and 10M-event traces, and the deep fan-out one…" >&2
"$workload" "$results/analysis-1m.trace" 1000000
"$workload" "$results/analysis-10m.trace" 10000000
# Issue 39: propagations thousands of steps deep that fan out at combines (TraceWorkload … deep).
"$workload" "$results/analysis-deep.trace" 4000000 deep
# measure_why TRACE: prints "CPU_SECONDS PEAK_KB WALL_SECONDS" (median CPU, peak, median wall of three
# runs) of `why --output 'model 0'`: the last update of a model, so both of its passes read the whole file.
measure_why() {
    local trace="$1" runs=()
    for _ in 1 2 3; do
        local timing="$results/why-time.txt"
        /usr/bin/time -f "%U %S %M %e" -o "$timing" "$tool" why "$trace" --output "model 0" \
            >"$results/why-out.txt" 2>"$results/why-stderr.txt" || return 1
        runs+=("$(tail -n 1 "$timing" | awk '{ printf "%.3f %d %.3f\n", $1 + $2, $3, $4 }')")
    done
    local walls
    walls="$(printf '%s\n' "${runs[@]}" | awk '{ print $3 }' | sort -n | sed -n 2p)"
    printf '%s\n' "${runs[@]}" | sort -n | awk -v wall="$walls" \
        'NR == 2 { cpu = $1 } { if ($2 > peak) peak = $2 } END { print cpu, peak, wall }'
}

echo "bench: timing bind-trace check…" >&2
small="$(measure "$results/analysis-1m.trace")" || fail "(bind-trace check failed)"
large="$(measure "$results/analysis-10m.trace")" || fail "(bind-trace check failed)"
deep="$(measure "$results/analysis-deep.trace")" || fail "(bind-trace check failed on the deep trace)"
read -r events1 cpu1 peak1 _ <<<"$small"
read -r events10 cpu10 peak10 wall10 <<<"$large"
read -r events_deep cpu_deep peak_deep _ <<<"$deep"
bytes10="$(stat -c %s "$results/analysis-10m.trace")"
echo "bench: timing bind-trace why…" >&2
why_small="$(measure_why "$results/analysis-1m.trace")" || why_small=""
why_large="$(measure_why "$results/analysis-10m.trace")" || why_large=""
rm -f "$results"/analysis-*.trace

awk -v e="$events_deep" -v c="$cpu_deep" -v p="$peak_deep" -v e10="$events10" -v c10="$cpu10" -v section="$section" '
function row(name, measured, against, ratio, target, met) {
    printf "row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", section, name, measured, against, ratio, target, met
}
BEGIN {
    rate = e / c; rate10 = e10 / c10
    row("bind-trace check, deep fan-out trace (issue 39): events/s (CPU time)", sprintf("%.2f M events/s", rate / 1e6),
        sprintf("%d events in %.2f s CPU, %.1f MB peak", e, c, p / 1024), sprintf("%.2f× the 10M trace'"'"'s rate", rate / rate10),
        "≥ 0.5× the 10M trace'"'"'s rate", (rate >= rate10 * 0.5) ? "met" : "MISSED")
}'
awk -v e1="$events1" -v c1="$cpu1" -v p1="$peak1" -v e10="$events10" -v c10="$cpu10" -v p10="$peak10" \
    -v w10="$wall10" -v target_wall_rate="$target_wall_rate" \
    -v bytes="$bytes10" -v target_rate="$target_rate" -v target_mb="$target_mb" -v section="$section" '
function row(name, measured, against, ratio, target, met) {
    printf "row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", section, name, measured, against, ratio, target, met
}
function verdict(ok) { return ok ? "met" : "MISSED" }
BEGIN {
    rate10 = e10 / c10; rate1 = e1 / c1; wallRate10 = e10 / (w10 > 0 ? w10 : 0.001)
    mb10 = p10 / 1024; mb1 = p1 / 1024
    row("bind-trace check, 10M-event trace: events/s (CPU time)", sprintf("%.2f M events/s", rate10 / 1e6),
        sprintf("%d events in %.2f s CPU", e10, c10), sprintf("%.2f× target", rate10 / target_rate),
        sprintf("≥ %d M events/s", target_rate / 1e6), verdict(rate10 >= target_rate))
    row("bind-trace check, 10M-event trace: events/s (wall clock, decoding on a second thread)",
        sprintf("%.2f M events/s", wallRate10 / 1e6), sprintf("%d events in %.2f s wall", e10, w10),
        sprintf("%.2f× target", wallRate10 / target_wall_rate),
        sprintf("≥ %d M events/s (100M events in < 10 s)", target_wall_rate / 1e6), verdict(wallRate10 >= target_wall_rate))
    row("bind-trace check, 1M-event trace: events/s (CPU time)", sprintf("%.2f M events/s", rate1 / 1e6),
        sprintf("%d events in %.2f s CPU", e1, c1), "", "—", "")
    row("peak memory (max RSS), 10M-event trace", sprintf("%.1f MB", mb10),
        sprintf("trace file %.0f MB (%.1f B/event)", bytes / 1e6, bytes / e10), sprintf("%.2f× target", mb10 / target_mb),
        sprintf("≤ %d MB", target_mb), verdict(mb10 <= target_mb))
    row("memory flat as the trace grows: 10M vs 1M events", sprintf("10M: %.1f MB", mb10), sprintf("1M: %.1f MB", mb1),
        sprintf("%.2f×", mb10 / mb1), "≤ 1.10×", verdict(mb10 <= mb1 * 1.10))
}'

# bind-trace why: the target of issue 28 is wall time (an editor waits for it), with memory flat.
if [ -z "$why_small" ] || [ -z "$why_large" ]; then
    echo "bench: bind-trace why failed: $(head -c 300 "$results/why-stderr.txt")" >&2
    row "bind-trace why --output 'model 0' (did not run: see the bench log)" "—" "" "" "" ""
    exit 0
fi
read -r why_cpu1 why_peak1 why_wall1 <<<"$why_small"
read -r why_cpu10 why_peak10 why_wall10 <<<"$why_large"
awk -v c1="$why_cpu1" -v p1="$why_peak1" -v w1="$why_wall1" -v c10="$why_cpu10" -v p10="$why_peak10" \
    -v w10="$why_wall10" -v e10="$events10" -v section="$section" '
function row(name, measured, against, ratio, target, met) {
    printf "row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", section, name, measured, against, ratio, target, met
}
function verdict(ok) { return ok ? "met" : "MISSED" }
BEGIN {
    row("bind-trace why --output (last update), 10M-event trace: wall time", sprintf("%.2f s", w10),
        sprintf("%d events, %.2f s CPU", e10, c10), sprintf("%.2f× target", w10 / 2), "< 2 s", verdict(w10 < 2))
    row("bind-trace why, 1M-event trace: wall time", sprintf("%.2f s", w1), sprintf("%.2f s CPU", c1), "", "—", "")
    row("bind-trace why: memory flat as the trace grows, 10M vs 1M events", sprintf("10M: %.1f MB", p10 / 1024),
        sprintf("1M: %.1f MB", p1 / 1024), sprintf("%.2f×", p10 / p1), "≤ 1.10×", verdict(p10 <= p1 * 1.10))
}'
