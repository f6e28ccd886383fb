#!/bin/bash
# Builds the tests once, then runs each test target of the package in a process of its own, one after
# another: `Scripts/test-by-target.sh [swift build/test options...]` (the same options for both, e.g.
# `--traits Tracing --scratch-path .build-tracing`, or with `--sanitize=address` in front).
#
# Why not one `swift test`: in the instrumented build every leak check records every event of its
# process while it runs (docs/testing.md), so BindTestingTests' hundreds of parallel checks, run beside
# the recorder's stress tests and a 100,000-deep map chain, each replayed millions of other tests'
# events. Measured on the 2-core VM: one process took 380 s and 651 s of CPU; a process per target
# took 234 s and 311 s of CPU, the tests unchanged.
#
# TEST_SKIP: a `swift test --skip` pattern for every target (the sanitizer passes leave out the browser's).
# Every target runs even after one fails; the last line names the failed ones (exit 1), or gives
# each target's time. The targets come from `swift package dump-package`, so none is forgotten.
set -u
SWIFT=${SWIFT:-swift}
cd "$(dirname "$0")/.."

targets=$("$SWIFT" package dump-package | python3 -c '
import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin)["targets"] if t["type"] == "test"))') || {
  echo "test-by-target.sh: swift package dump-package failed" >&2; exit 2; }
[ -n "$targets" ] || { echo "test-by-target.sh: the package has no test targets" >&2; exit 2; }

"$SWIFT" build --build-tests "$@" || exit 1

skip=()
[ -n "${TEST_SKIP:-}" ] && skip=(--skip "$TEST_SKIP")
failed=""
times=""
for target in $targets; do
  start=$(date +%s)
  "$SWIFT" test --skip-build "$@" --filter "^$target\\." ${skip[@]+"${skip[@]}"} || failed="$failed $target"
  times="$times $target $(( $(date +%s) - start )) s,"
done
if [ -n "$failed" ]; then
  echo "test-by-target.sh: failed:$failed (times:$times)"
  exit 1
fi
echo "test-by-target.sh: every target passed:$times"
