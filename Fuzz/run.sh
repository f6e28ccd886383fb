#!/usr/bin/env bash
# Runs every libFuzzer target of Fuzz/Package.swift for SECONDS each (default 60) on its committed
# seed corpus. New corpus entries go to a scratch directory, never to Fuzz/corpus.
#
#   Fuzz/run.sh [SECONDS]            all targets
#   FUZZ_TARGETS="FuzzTraceReader" Fuzz/run.sh 300
#
# Exits non-zero when a target crashes, hangs (-timeout), runs out of memory or leaks, and prints
# the path of the input that did it; reproduce with `Fuzz/.build/release/<Target> <input>`.
# First each target replays its known findings (Fuzz/regressions/<reader|analysis|labels>) with
# their checks on (FUZZ_CHECK_KNOWN=1; leak suppressions as in the runs) and says which still reproduce: those
# fail the run: every one of them is fixed (FUZZ_STRICT=0 only reports them).
# Environment: FUZZ_WORK (scratch, default .build-fuzz), FUZZ_JOBS (parallel runs per target, default 1),
# FUZZ_SEED (a fixed libFuzzer seed), FUZZ_RUNS ("Target=N ...": a fixed number of inputs per
# target, SECONDS only a cap) — with both, a run starts from the committed corpus alone and hashes
# deterministically, so it tries the same inputs on every machine, however fast;
# FUZZ_CHECK_KNOWN=1 (check known findings while fuzzing too), FUZZ_LSAN_STRICT=1 (no suppressions).
# To read a finding of FuzzAnalysis: `FUZZ_DUMP=1 Fuzz/.build/release/FuzzAnalysis <input>` prints its events.
set -euo pipefail

seconds="${1:-${FUZZ_SECONDS:-60}}"
[ -n "$seconds" ] || seconds=60
fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$fuzz_dir/.." && pwd)"
work="${FUZZ_WORK:-$root/.build-fuzz}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"

# The Swift runtime's backtracer would symbolicate every crash for up to 30 s (and can hang a
# minimised run); ASan prints the stack already.
export SWIFT_BACKTRACE=enable=no
# Swift seeds its hashing per process, so Set and Dictionary order (and with it the coverage that
# guides libFuzzer) would vary between runs of the same input.
# Addresses, too, reach the coverage (tables keyed by object identity): a repeatable run also
# turns address-space randomisation off where setarch can.
fixed_layout=()
if [ -n "${FUZZ_SEED:-}" ]; then
    export SWIFT_DETERMINISTIC_HASHING=1
    if setarch "$(uname -m)" -R true 2>/dev/null; then fixed_layout=(setarch "$(uname -m)" -R); fi
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
# Known leaks outside this package's reach, each with its reason (FUZZ_LSAN_STRICT=1: none).
if [ "${FUZZ_LSAN_STRICT:-0}" != 1 ]; then
    export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$fuzz_dir/lsan-suppressions.txt:print_suppressions=0}"
fi

# Target → corpus directories (committed seeds), one per line; the analysis and label targets
# also read traces.
corpus_for() {
    case "$1" in
        FuzzTraceReader) printf '%s\n' "$fuzz_dir/corpus/traces" ;;
        FuzzAnalysis) printf '%s\n' "$fuzz_dir/corpus/traces" "$fuzz_dir/corpus/replay" ;;
        FuzzLabels) printf '%s\n' "$fuzz_dir/corpus/labels" "$fuzz_dir/corpus/traces" ;;
    esac
}

# Which targets exist depends on what main has: Package.swift adds the analysis target when
# BindAnalysis has its replay, the label target when BindGraph and BindReport have their escaping.
available="$(cd "$fuzz_dir" && swift package describe --type json 2>/dev/null |
    python3 -c 'import json,sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["targets"] if t["type"] == "executable"))')"
wanted="${FUZZ_TARGETS:-FuzzTraceReader FuzzAnalysis FuzzLabels}"

echo "== building fuzz targets (release, -sanitize=fuzzer,address)"
targets=()
for target in $wanted; do
    case " $available " in
        *" $target "*) targets+=("$target") ;;
        *)
            case "$target" in
                FuzzAnalysis) echo "== SKIP $target: BindAnalysis has no Replay/TraceAnalyzer in this checkout yet" ;;
                FuzzLabels) echo "== SKIP $target: BindGraph/BindReport have no label escaping in this checkout yet" ;;
                *) echo "== SKIP $target: not in Fuzz/Package.swift" ;;
            esac
            ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz target to run"; exit 1; }
# Linked with lld: gold (the toolchain's default here) stops with "internal error in format_file_lineno"
# on these sanitized release objects, where lld links them.
for target in "${targets[@]}"; do
    (cd "$fuzz_dir" && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
        --product "$target" 2>&1 |
        grep -E "error|warning: .*Fuzz/|Compiling|Build of" | grep -v "^\[" || true)
    [ -x "$fuzz_dir/.build/release/$target" ] || { echo "build of $target failed"; exit 1; }
done

regressions_for() {
    case "$1" in
        FuzzTraceReader) echo "$fuzz_dir/regressions/reader" ;;
        FuzzAnalysis) echo "$fuzz_dir/regressions/analysis" ;;
        FuzzLabels) echo "$fuzz_dir/regressions/labels" ;;
    esac
}

status=0
echo "== known findings (Fuzz/regressions), replayed with their checks on"
for target in "${targets[@]}"; do
    for input in "$(regressions_for "$target")"/*; do
        [ -f "$input" ] || continue
        if (cd "$work" && FUZZ_CHECK_KNOWN=1 "$fuzz_dir/.build/release/$target" \
            -runs=1 "$input") >"$work/regression.log" 2>&1; then
            echo "   fixed:            $target ${input#"$fuzz_dir"/}"
        else
            echo "   still reproduces: $target ${input#"$fuzz_dir"/} ($(grep -m1 -oE "invariant broken: .{0,80}|ERROR: [A-Za-z]+: [a-z -]+" "$work/regression.log"))"
            [ "${FUZZ_STRICT:-1}" = 1 ] && status=1
        fi
    done
done

for target in "${targets[@]}"; do
    scratch="$work/corpus/$target"
    artifacts="$work/artifacts/$target"
    # Earlier crashes are regression tests by now (Fuzz/regressions); report only this run's.
    rm -rf "$artifacts"
    mkdir -p "$scratch" "$artifacts"
    parallel=()
    if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
    # A fixed seed makes a run repeatable (CI's smoke pass uses one): same corpus, same inputs in order.
    if [ -n "${FUZZ_SEED:-}" ]; then parallel+=(-seed="$FUZZ_SEED"); fi
    runs=""
    for entry in ${FUZZ_RUNS:-}; do
        [ "${entry%%=*}" = "$target" ] && runs="${entry#*=}"
    done
    # The committed corpus, as directories libFuzzer lists itself.
    corpus=()
    while IFS= read -r directory; do corpus+=("$directory"); done < <(corpus_for "$target")
    if [ -n "$runs" ]; then
        # -reload=0: no rereading the corpus directory on a timer.
        parallel+=(-runs="$runs" -reload=0)
        if [ -n "${FUZZ_SEED:-}" ]; then
            # Inputs found by earlier runs would change what this one tries; so would the order in
            # which a file system lists a directory (libFuzzer's sort by size keeps no order among
            # equal sizes): the seeds go in as a list sorted by name, and new inputs to a scratch
            # directory of this run's own (never the one `make fuzz` keeps).
            case "$fuzz_dir" in
                *,*) echo "Fuzz/run.sh: $fuzz_dir: a repeatable run needs a checkout path without commas (libFuzzer's -seed_inputs splits at them)"; exit 1 ;;
            esac
            scratch="$work/corpus-repeatable/$target"
            rm -rf "$scratch" && mkdir -p "$scratch"
            seeds="$(for directory in "${corpus[@]}"; do find "$directory" -type f; done | LC_ALL=C sort | paste -sd, -)"
            corpus=()
            parallel+=(-seed_inputs="$seeds")
        fi
    fi
    log="$work/$target.log"
    echo "== $target: ${runs:+$runs inputs, at most }${seconds}s on $(corpus_for "$target" | paste -sd' ' -)"
    # The first directory receives new inputs; the committed ones are only read.
    set +e
    (cd "$work" && ${fixed_layout[@]+"${fixed_layout[@]}"} "$fuzz_dir/.build/release/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        ${parallel[@]+"${parallel[@]}"} \
        -artifact_prefix="$artifacts/" -print_final_stats=1 \
        "$scratch" ${corpus[@]+"${corpus[@]}"}) >"$log" 2>&1
    result=$?
    set -e
    grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::number_of_executed_units|stat::new_units_added)" "$log" || true
    executed="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
    if [ -n "$runs" ] && [ -n "$executed" ] && [ "$executed" -lt "$runs" ] && [ "$result" -eq 0 ]; then
        # The time cap came first: this machine tried fewer inputs than the run that passed elsewhere.
        echo "== $target: warning: stopped by the ${seconds}s cap after $executed of $runs inputs"
    fi
    if [ "$result" -ne 0 ]; then
        status=1
        echo "== $target FAILED (exit $result); log: $log"
        grep -E "invariant broken|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY|Fatal error" "$log" | head -5 || true
        grep -E "Test unit written to|artifact_prefix" "$log" | sed 's/^/   /' || true
        for input in "$artifacts"/*; do
            [ -e "$input" ] && echo "   crashing input: $input"
        done
    else
        echo "== $target: no finding"
    fi
done
exit $status
