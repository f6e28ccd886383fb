#!/usr/bin/env bash
# Section 35 of `make bench` (run by Benchmarks/run.sh with the results directory as $1): `bind-trace diff`
# of two 10M-event traces against the two `check` runs it replaces (issue 36: under 2× their time, memory
# flat), and its peak memory on two 1M-event traces to show memory stays flat as the traces grow.
#
# The traces are recorded as in analysis.sh (TraceWorkload, Bind's own recorder), twice each size: two
# runs of one program, other ids. Time: CPU (user + system) and wall time from /usr/bin/time, the median
# of three runs; memory: peak resident set size, the largest of the three. Prints result rows (format:
# the HOOKS comment in run.sh).
set -euo pipefail

results="$1"
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/.." && pwd)"
SWIFT="${SWIFT:-swift}"
log="${BENCH_LOG:-$results/build.log}"
section="bind-trace diff — two 10M-event traces vs two check runs, peak memory"

row() {  # row CASE MEASURED AGAINST RATIO TARGET MET
    printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$section" "$1" "$2" "$3" "$4" "$5" "$6"
}

echo "bench: building bind-trace (release) and the trace workload…" >&2
if ! "$SWIFT" build -c release --product bind-trace --package-path "$root" \
    --scratch-path "$root/.build-release" >>"$log" 2>&1 \
    || ! BIND_BENCH_VARIANT=instrumented "$SWIFT" build -c release --product TraceWorkload \
        --package-path "$here" --scratch-path "$here/.build-instrumented" >>"$log" 2>&1; then
    row "(did not build: see the bench log)" "—" "" "" "" ""
    exit 0
fi
tool="$root/.build-release/release/bind-trace"
workload="$here/.build-instrumented/release/TraceWorkload"

# timed COMMAND…: prints "CPU_SECONDS PEAK_KB WALL_SECONDS" of one run (exit status 1 is a finding, not a failure).
timed() {
    /usr/bin/time -f "%U %S %M %e" -o "$results/diff-time.txt" "$@" >/dev/null 2>"$results/diff-stderr.txt" || true
    tail -n 1 "$results/diff-time.txt" | awk '{ printf "%.3f %d %.3f\n", $1 + $2, $3, $4 }'
}
# median3 "CPU PEAK WALL"…: the median CPU and wall, the largest peak.
median3() {
    local cpu peak wall
    cpu="$(printf '%s\n' "$@" | awk '{ print $1 }' | sort -n | sed -n 2p)"
    peak="$(printf '%s\n' "$@" | awk '{ print $2 }' | sort -n | tail -n 1)"
    wall="$(printf '%s\n' "$@" | awk '{ print $3 }' | sort -n | sed -n 2p)"
    echo "$cpu $peak $wall"
}
# measure SIZE: prints "DIFF_CPU DIFF_PEAK DIFF_WALL CHECKS_CPU CHECKS_PEAK CHECKS_WALL".
measure() {
    local base="$results/diff-$1-base.trace" head="$results/diff-$1-head.trace" diffs=() checks=()
    for _ in 1 2 3; do
        diffs+=("$(timed "$tool" diff "$base" "$head" --fail-on none)")
        local first second
        first="$(timed "$tool" check "$base")"
        second="$(timed "$tool" check "$head")"
        checks+=("$(printf '%s\n%s\n' "$first" "$second" | awk '{ c += $1; w += $3; if ($2 > p) p = $2 }
            END { printf "%.3f %d %.3f\n", c, p, w }')")
    done
    echo "$(median3 "${diffs[@]}") $(median3 "${checks[@]}")"
}

echo "bench: recording two 1M- and two 10M-event traces…" >&2
for size in 1m 10m; do
    events=$([ "$size" = 1m ] && echo 1000000 || echo 10000000)
    "$workload" "$results/diff-$size-base.trace" "$events"
    "$workload" "$results/diff-$size-head.trace" "$events"
done
echo "bench: timing bind-trace diff and check…" >&2
read -r d1_cpu d1_peak _ _ _ _ <<<"$(measure 1m)"
read -r d_cpu d_peak d_wall c_cpu c_peak c_wall <<<"$(measure 10m)"
rm -f "$results"/diff-*.trace

awk -v dc="$d_cpu" -v dw="$d_wall" -v dp="$d_peak" -v cc="$c_cpu" -v cw="$c_wall" -v cp="$c_peak" \
    -v d1p="$d1_peak" -v d1c="$d1_cpu" -v section="$section" '
function row(name, measured, against, ratio, target, met) {
    printf "row\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", section, name, measured, against, ratio, target, met
}
function verdict(ok) { return ok ? "met" : "MISSED" }
BEGIN {
    row("bind-trace diff of two 10M-event traces: wall time", sprintf("%.2f s", dw),
        sprintf("two check runs: %.2f s", cw), sprintf("%.2f×", dw / cw), "< 2×", verdict(dw < 2 * cw))
    row("bind-trace diff of two 10M-event traces: CPU time", sprintf("%.2f s", dc),
        sprintf("two check runs: %.2f s", cc), sprintf("%.2f×", dc / cc), "< 2×", verdict(dc < 2 * cc))
    row("bind-trace diff: memory flat as the traces grow, 10M vs 1M events", sprintf("10M: %.1f MB", dp / 1024),
        sprintf("1M: %.1f MB (check 10M: %.1f MB)", d1p / 1024, cp / 1024), sprintf("%.2f×", dp / d1p), "≤ 1.10×",
        verdict(dp <= d1p * 1.10))
}'
