# The two commands a newcomer runs: `make demo` and `make test`. Both install what is missing.
SWIFT ?= swift
APT_PACKAGES := libgraphviz-dev graphviz pkg-config clang-format nodejs
# Only for the tests of `bind-trace export`: they decode its Perfetto files with protoc.
TEST_PACKAGES := protobuf-compiler
# Only for the browser test of the HTML report (skipped with a message when missing).
BROWSER_PACKAGES := chromium
# Python and pip, for the standard validators the tests use: jsonschema (Draft 2020-12) checks the JSON
# outputs against docs/schemas/, and perfetto's own trace schema checks `bind-trace export`'s files.
PYTHON_PACKAGES := python3 python3-pip
# The report's browser tests drive the system Chromium with Playwright (its own browser download is not used).
PIP_PACKAGES := jsonschema perfetto playwright
PIP_MODULES := jsonschema, perfetto.protos.perfetto.trace.perfetto_trace_pb2, playwright
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TRACING_BUILD := --traits Tracing --scratch-path .build-tracing
## The sanitizer passes leave out the default trait Serve (`bind-trace serve`, SwiftNIO): NIO is built and
## tested once, by test-plain; `--traits Tracing` (the instrumented passes) leaves it out too.
NO_SERVE := --disable-default-traits

.PHONY: setup build lint generate format api docs test test-plain test-tracing release-fixture test-e2e test-parallel-suite tsan asan sanitize demo bench fuzz fuzz-smoke stress clean

## Installs the Debian packages the package needs, when they are missing (idempotent, quiet).
setup:
	@missing=""; for package in $(APT_PACKAGES); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; done; \
	for package in $(TEST_PACKAGES) $(BROWSER_PACKAGES) $(PYTHON_PACKAGES); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c "import $(PIP_MODULES)" 2>/dev/null || { \
	  echo "make setup: installing the Python packages $(PIP_PACKAGES)"; \
	  python3 -m pip install --quiet $(PIP_PACKAGES) 2>/dev/null \
	    || python3 -m pip install --quiet --user --break-system-packages $(PIP_PACKAGES); }

build: setup
	$(SWIFT) build

## swift format's lint of our Swift code with the checked-in .swift-format (strict: any finding fails),
## clang-format's of our C targets with the checked-in .clang-format (any change it would make fails), and the
## report page's style sheet and script: `node --check` parses the script, Scripts/lint-page.mjs checks both
## files' layout (and the script's parse, the style sheet's braces) with nothing but Node itself.
FORMATTED := Sources Tests Samples Benchmarks Fuzz Package.swift
C_FORMATTED = $(shell git ls-files 'Sources/C*' 'Benchmarks/Sources/C*' 'Fuzz/Sources/C*' | grep -E '\.(c|h)$$')
PAGE_FILES = $(shell git ls-files 'Sources/BindReport/*.css' 'Sources/BindReport/*.js')
lint: setup
	python3 Scripts/generate-event-kinds.py --check
	$(SWIFT) format lint --strict --recursive $(FORMATTED) Plugins
	clang-format --dry-run --Werror $(C_FORMATTED)
	for script in $(filter %.js,$(PAGE_FILES)); do node --check $$script || exit 1; done
	node Scripts/lint-page.mjs $(PAGE_FILES)

## Writes every per-kind form of the trace's events (readers, writers, JSON, narration, fuzzing, samples,
## the seed of every kind, docs/trace-format.md's tables) from Sources/BindTraceFormat/EventKinds.toml;
## `make lint` fails when one is out of date. docs/architecture.md, "Adding a new event kind".
generate:
	python3 Scripts/generate-event-kinds.py

## Rewrites our Swift and C code in the checked-in styles (what `make lint` checks).
format: setup
	$(SWIFT) format --in-place --recursive $(FORMATTED) Plugins
	clang-format -i $(C_FORMATTED)

## The public API of both builds (plain, Tracing) against the checked-in list, docs/public-api.txt (SPI
## excluded): fails when a public symbol appears, disappears or changes without the list changing.
## `Scripts/public-api.py --update` rewrites the list. Then every public symbol must have a `///` comment of its
## own: those of Bind and BindTesting, and of the analysis API (BindAnalysis, and the trace's values it names from
## BindTraceModel and BindTraceFormat). `Scripts/doc-coverage.py --missing` lists what lacks one, in every module.
api:
	Scripts/public-api.py
	Scripts/doc-coverage.py --check Bind BindTesting BindAnalysis BindTraceModel BindTraceFormat

## The DocC documentation of Bind and BindTesting (their catalogs: Sources/Bind/Bind.docc,
## Sources/BindTesting/BindTesting.docc) through swift-docc-plugin, failing on any DocC warning. The archives go to
## .build/plugins/Swift-DocC/outputs/ (git-ignored); `swift package --disable-sandbox preview-documentation --target
## Bind` serves one. Not part of `make test` (see docs/architecture.md, "Counts", for its time).
DOCS_TARGETS := Bind BindTesting
docs:
	$(SWIFT) package generate-documentation $(addprefix --target ,$(DOCS_TARGETS)) --warnings-as-errors

## All tests, as CI runs them: the format lint, the public API list, the plain build, the instrumented build (trait Tracing), the CI recipe
## end to end in a scratch user package, a user's leak-checked suite run in parallel (a short form), both builds
## again under AddressSanitizer and Thread Sanitizer, and a short pass of every fuzz target.
## Each step prints how long it took, and the last line repeats every step's time (a CI log's tail shows
## where its time went, even when a step fails).
TEST_STEPS := lint api test-plain test-tracing test-e2e test-parallel-suite asan tsan fuzz-smoke
test: setup
	@times=""; for step in $(TEST_STEPS); do \
	  start=$$(date +%s); \
	  $(MAKE) --no-print-directory $$step || { \
	    echo "make test: $$step failed after $$(( $$(date +%s) - start )) s (before it:$$times)"; exit 1; }; \
	  echo "make test: $$step took $$(( $$(date +%s) - start )) s"; \
	  times="$$times $$step $$(( $$(date +%s) - start )) s,"; \
	done; echo "make test: passed:$$times"

## The plain build on purpose: its leak checks check nothing, and BIND_LEAK_CHECK_REQUIRE_TRACING=0 keeps
## them warnings where CI is set (docs/testing.md); the Tracing build's tests check for real.
PLAIN_BUILD_CHECKS := BIND_LEAK_CHECK_REQUIRE_TRACING=0
## The plain build's passes (test-plain, and the plain half of tsan) build every test and run those
## of what differs between the builds: only Sources/Bind has `#if Tracing` (the library, its UIKit bindings
## and BindTesting on top of it), BIND_TRACE in a build that cannot record, and `serve` (the trait Serve).
## Every other module is the same code in both builds and runs in the instrumented passes (docs/hardening.md).
PLAIN_TESTS := --filter '^(BindTests|BindUIKitTests|BindTestingTests)\.|UntracedEnvironmentTests|ServeTests'

## The plain build, with the default trait Serve: the only pass that builds SwiftNIO and runs ServeTests.
test-plain:
	$(PLAIN_BUILD_CHECKS) $(SWIFT) test $(PLAIN_TESTS)

## The instrumented passes run each test target in a process of its own (Scripts/test-by-target.sh says why).
BY_TARGET := SWIFT=$(SWIFT) Scripts/test-by-target.sh

test-tracing: release-fixture
	$(BY_TARGET) $(TRACING_BUILD)

## The long form of the recorder's stress tests (`make test` runs the short one, 20 trials): 200 trials of
## SIGTERM, SIGINT and SIGHUP mid-burst, each trace checked against a count of updates kept in shared memory.
STRESS_TRIALS ?= 200
stress: setup
	BIND_STRESS_TRIALS=$(STRESS_TRIALS) $(SWIFT) test $(TRACING_BUILD) --filter SignalCountTests

## TraceFixture built with -c release in the instrumented build's folder: StoppedCombineProgramTests runs
## it, since the optimiser may release a combine's source after its last use (docs/compatibility.md).
release-fixture:
	$(SWIFT) build -c release $(TRACING_BUILD) --product TraceFixture

## The README's CI recipe in a scratch package that depends on this one by path: XCTest and Swift
## Testing targets with planted leaks, `swift test --parallel` recording one trace per process, one
## `bind-trace report` over them (slow: it builds the scratch package).
test-e2e: setup
	$(SWIFT) build --product bind-trace
	BIND_E2E=1 $(SWIFT) test --filter EndToEndRecipeTests

## A user's suite under the leak check (Samples/ParallelLeakSuite, a package of its own that depends on this one
## by path): `swift test --parallel` PARALLEL_SUITE_RUNS times (3 here; `Scripts/parallel-suite.sh 10` for the
## full proof), failing if a clean test ever fails or a planted leak is ever missed.
PARALLEL_SUITE_RUNS ?= 3
test-parallel-suite:
	SWIFT=$(SWIFT) Scripts/parallel-suite.sh $(PARALLEL_SUITE_RUNS)

## The main job: build the traced sample, run it, write the findings, the graph and the report; then run the
## sample's pull-request variant (one bug fixed, an update storm added) and write what changed (bind-trace diff).
demo: setup
	$(SWIFT) build $(TRACING_BUILD) --product SignInSample
	$(SWIFT) build $(TRACING_BUILD) --product bind-trace
	@mkdir -p demo
	BIND_TRACE=demo/signin.trace BIND_TRACE_VALUES=1 .build-tracing/debug/SignInSample > demo/sample-output.txt
	@.build-tracing/debug/bind-trace check demo/signin.trace > demo/check.txt; status=$$?; \
	  cat demo/check.txt; [ $$status -le 1 ] || exit $$status
	.build-tracing/debug/bind-trace graph demo/signin.trace --include-released -o demo/graph.svg
	.build-tracing/debug/bind-trace graph demo/signin.trace --include-released --format png -o demo/graph.png
	.build-tracing/debug/bind-trace report demo/signin.trace --include-released -o demo/report --fail-on none
	.build-tracing/debug/bind-trace export demo/signin.trace --format perfetto -o demo/signin.pftrace
	.build-tracing/debug/bind-trace why demo/signin.trace --label status > demo/why.txt
	SIGNIN_VARIANT=pull-request BIND_TRACE=demo/signin-pr.trace BIND_TRACE_VALUES=1 .build-tracing/debug/SignInSample > demo/sample-output-pr.txt
	.build-tracing/debug/bind-trace diff demo/signin.trace demo/signin-pr.trace --format markdown -o demo/diff.md --svg demo/diff.svg
	.build-tracing/debug/bind-trace diff demo/signin.trace demo/signin-pr.trace > demo/diff.txt
	.build-tracing/debug/bind-trace report demo/signin-pr.trace --base demo/signin.trace -o demo/report-pr --fail-on none
	@echo
	@echo "Trace:     demo/signin.trace  (bind-trace dump demo/signin.trace | jq)"
	@echo "Findings:  demo/check.txt"
	@echo "Why:       demo/why.txt  (bind-trace why demo/signin.trace --label status: how 'status' got its last value)"
	@echo "Graph:     demo/graph.svg  (also demo/graph.png)"
	@echo "Report:    demo/report/index.html  (also junit.xml, findings.sarif)"
	@echo "Timeline:  demo/signin.pftrace  (open in https://ui.perfetto.dev)"
	@echo "Diff:      demo/diff.md, demo/diff.svg, demo/diff.txt  (the sample against its pull-request variant, SIGNIN_VARIANT=pull-request)"
	@echo "           demo/report-pr/index.html#changes  (the variant's report, with Changes since BASE)"

## The sanitizer passes leave out the report's browser suites: Chromium runs the page's script there, none of our
## Swift code (test-tracing runs them). Thread Sanitizer also leaves out the test targets of modules whose code runs
## on one thread, with no lock, atomic or unchecked Sendable of their own (Swift 6's checks rule out their races):
## the analysis, the report, text, live and export modules. ASan and test-tracing run them.
SANITIZER_SKIP := TEST_SKIP='BindReportTests\.(Address|Interactive)?BrowserTests/'
TSAN_SKIP := TEST_SKIP='^(BindAnalysisTests|BindReportTests|BindTextTests|BindLiveTests|BindExportTests)\.'

## The tests under Thread Sanitizer, plain (the library's as shipped by default: the recorder's own locks add
## orderings that can mask a race) and instrumented (the targets of threaded code, above).
tsan: setup
	$(PLAIN_BUILD_CHECKS) $(SWIFT) test --sanitize=thread --scratch-path .build-tsan $(NO_SERVE) $(PLAIN_TESTS)
	$(TSAN_SKIP) $(BY_TARGET) --sanitize=thread --traits Tracing --scratch-path .build-tsan-tracing

## The tests under AddressSanitizer, instrumented build only: the plain build is the same code without the probe calls,
## and a memory error does not depend on thread timing (the plain build's threads are TSan's, above). Leak detection
## is off here: the tests start child processes and use Foundation, whose own leaks are noise; the fuzz targets check
## leaks with a suppression list that names each reason (Fuzz/lsan-suppressions.txt).
asan: setup
	ASAN_OPTIONS=detect_leaks=0 $(SANITIZER_SKIP) $(BY_TARGET) --sanitize=address --traits Tracing --scratch-path .build-asan-tracing

## AddressSanitizer and Thread Sanitizer, both builds.
sanitize: asan tsan

## Each libFuzzer target for a set time (FUZZ_SECONDS, default 60) on its committed corpus.
fuzz: setup
	Fuzz/run.sh $(FUZZ_SECONDS)

## The fuzz pass of `make test`: every known finding replayed, then a fixed number of inputs per
## target from a fixed seed and the committed corpus, so CI tries exactly the inputs that passed
## here, however fast its machine (at most 60 s each); `make fuzz` explores with fresh seeds.
fuzz-smoke: setup
	FUZZ_SEED=1 FUZZ_RUNS="FuzzTraceReader=12000 FuzzAnalysis=15000 FuzzLabels=600" Fuzz/run.sh 60

## Benchmarks (release builds of the separate package in Benchmarks/); prints one table.
bench: setup
	Benchmarks/run.sh

clean:
	rm -rf .build .build-* .build_* demo Fuzz/.build
