#!/usr/bin/env bash
# Builds the benchmarks in release mode and prints ONE table: `make bench` runs this.
#
#   Benchmarks/run.sh            the full run (a few minutes, most of it building)
#   Benchmarks/run.sh --quick    fewer, shorter samples: a smoke test of the whole pipeline
#
# Two builds of this package, each in its own scratch path (the manifest reads BIND_BENCH_VARIANT):
#   plain         Bind as users get it (no traits) against the limit and OpenCombine 0.14
#   instrumented  Bind with the `Tracing` trait: tracing off vs the plain build, on vs off, clocks
# Each run writes rows (tab-separated, format in Sources/BindBenchmarks/Report.swift) into a
# results directory; the table prints every file there, in name order.
#
# Build output goes to $BENCH_LOG (default: a file in the results directory), shown only on failure.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
SWIFT="${SWIFT:-swift}"
quick=""
rounds=151
if [ "${1:-}" = "--quick" ]; then quick="--quick"; rounds=11; fi

results="$(mktemp -d "${TMPDIR:-/tmp}/bind-bench.XXXXXX")"
trap 'rm -rf "$results"' EXIT
log="${BENCH_LOG:-$results/build.log}"
# A trace must be started by the benchmark itself, never by the environment.
unset BIND_TRACE BIND_TRACE_VALUES

build() {  # build VARIANT
    echo "bench: building the $1 variant (release)…" >&2
    if ! BIND_BENCH_VARIANT="$1" "$SWIFT" build -c release --product BindBenchmarks \
        --scratch-path "$here/.build-$1" >>"$log" 2>&1; then
        cat "$log" >&2
        echo "bench: the $1 build failed" >&2
        exit 1
    fi
}
build plain
build instrumented
plain="$here/.build-plain/release/BindBenchmarks"
instrumented="$here/.build-instrumented/release/BindBenchmarks"

echo "bench: running the plain variant…" >&2
"$plain" run $quick >"$results/10-bind.tsv"
echo "bench: running the instrumented variant…" >&2
"$instrumented" run $quick --baseline "$results/10-bind.tsv" --trace-dir "$results" >"$results/20-tracing.tsv"

# ---------------------------------------------------------------------------------------------
# HOOKS for sections filled later. Each hook writes rows to its own file in "$results"; a file
# with a lower number prints first. A row is one tab-separated line:
#     row <TAB> section <TAB> case <TAB> measured <TAB> against <TAB> ratio <TAB> target <TAB> met
# Until a hook exists, a placeholder row keeps the section visible in the table.
#
# 30 — bind-trace analysis throughput: events/s on a generated 10M-event trace, peak memory.
#      Put the script at Benchmarks/hooks/analysis.sh; it gets the results directory as $1.
# 35 — bind-trace diff: two 10M-event traces against the two check runs, peak memory (hooks/diff.sh).
# 40 — graph rendering: ours vs `dot -Tsvg` / `sfdp -Tsvg`, per graph size.
#      Put the script at Benchmarks/hooks/rendering.sh; it gets the results directory as $1.
# ---------------------------------------------------------------------------------------------
hook() {  # hook NUMBER NAME SECTION
    local script="$here/hooks/$2.sh" out="$results/$1-$2.tsv"
    if [ -x "$script" ]; then
        "$script" "$results" >"$out"
    else
        printf 'row\t%s\t(not measured yet: add Benchmarks/hooks/%s.sh)\t—\n' "$3" "$2" >"$out"
    fi
}
hook 30 analysis "bind-trace analysis — events/s on a generated 10M-event trace, peak memory"
hook 35 diff "bind-trace diff — two 10M-event traces vs two check runs, peak memory"
hook 40 rendering "Graph rendering — ours vs dot -Tsvg / sfdp -Tsvg"

{
    echo "Bind benchmarks — $(date -u +%Y-%m-%d) — $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //') — $("$SWIFT" --version 2>/dev/null | head -1)"
    echo "Times: thread CPU time per operation, median of $rounds rounds (each round times every contestant); ratios: median of per-round ratios."
    echo
    "$plain" table "$results"/[0-9]*.tsv
}
