#!/usr/bin/env bash
# Runs the user-shaped suite in Samples/ParallelLeakSuite with `swift test --parallel`, RUNS times
# (default 10), and fails when any run fails: a clean test failing (a false finding, however rare),
# or a planted leak not caught (its test expects it with `withKnownIssue`, which fails when no
# matching issue is recorded). `make test-parallel-suite` runs a short form (PARALLEL_SUITE_RUNS=3).
#
#   Scripts/parallel-suite.sh [RUNS]
#
# The suite is a package of its own that depends on Bind by path with its `Tracing` trait, so it
# builds once into its own .build and each run runs only its tests.
set -euo pipefail

runs="${1:-10}"
SWIFT="${SWIFT:-swift}"
suite="$(cd "$(dirname "$0")/../Samples/ParallelLeakSuite" && pwd)"
cd "$suite"
# The suite is judged by its leak checks in memory: no trace file from the environment.
unset BIND_TRACE BIND_TRACE_VALUES

echo "parallel-suite: building $suite" >&2
"$SWIFT" build --build-tests >/dev/null

logs="$(mktemp -d "${TMPDIR:-/tmp}/parallel-suite.XXXXXX")"
trap 'rm -rf "$logs"' EXIT
failed=0
for run in $(seq 1 "$runs"); do
    log="$logs/run-$run.log"
    if "$SWIFT" test --skip-build --parallel >"$log" 2>&1; then status=0; else status=$?; fi
    # Each run must have run the suite at all: 25 Swift Testing tests and 4 XCTest tests.
    if [ "$status" -ne 0 ] || ! grep -q "Test run with 25 tests" "$log" || ! grep -q "\[4/4\] Testing ShopXCTests" "$log"; then
        echo "parallel-suite: run $run of $runs failed (exit $status):" >&2
        grep -E "✘|error:|failed|Issue recorded" "$log" | grep -v "known issue" | head -40 >&2 || true
        failed=$((failed + 1))
    else
        echo "parallel-suite: run $run of $runs passed" >&2
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "parallel-suite: $failed of $runs runs failed" >&2
    exit 1
fi
echo "parallel-suite: all $runs runs passed (no clean test failed, every planted leak caught)" >&2
