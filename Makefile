# The two commands a newcomer runs: `make demo` and `make test`. Both install what is missing.
SWIFT ?= swift
APT_PACKAGES := libgraphviz-dev graphviz pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TRACING_BUILD := --traits Tracing --scratch-path .build-tracing

.PHONY: setup build test test-plain test-tracing tsan sanitize demo bench fuzz clean

## Installs the Debian packages the package needs, when they are missing (idempotent, quiet).
setup:
	@missing=""; for package in $(APT_PACKAGES); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

build: setup
	$(SWIFT) build

## All tests: the plain build, then the instrumented build (trait Tracing).
test: setup test-plain test-tracing

test-plain:
	$(SWIFT) test

test-tracing:
	$(SWIFT) test $(TRACING_BUILD)

## The tests under Thread Sanitizer, plain and instrumented.
tsan: setup
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --sanitize=thread --traits Tracing --scratch-path .build-tsan-tracing

clean:
	rm -rf .build .build-* demo

## Benchmarks (release build of the separate package in Benchmarks/); prints one table.
bench: setup
	Benchmarks/run.sh
