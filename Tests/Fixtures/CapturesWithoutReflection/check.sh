#!/bin/sh
# Checks that the closure reader reports `.unknown` rather than crashing or guessing when a binary carries
# no capture descriptors: compiles main.swift with the reader (and the Lock it uses) into one program,
# once per flag that strips reflection metadata (and once keeping it, as a control), and runs it. Needs swiftc and clang (both in the toolchain).
# Usage: Tests/Fixtures/CapturesWithoutReflection/check.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/CBindCore"
printf 'module CBindCore {\n    header "%s"\n    export *\n}\n' "$root/Sources/CBindCore/include/CBindCore.h" \
    >"$work/CBindCore/module.modulemap"
clang -c -O2 -I "$root/Sources/CBindCore/include" "$root/Sources/CBindCore/CBindCore.c" -o "$work/CBindCore.o"

# The control run keeps the metadata (and expects the captured instance); the others strip it.
for flags in "-D CAPTURES_WITH_METADATA" "-Xfrontend -disable-reflection-metadata" \
    "-Xfrontend -reflection-metadata-for-debugger-only"; do
    echo "== $flags"
    # shellcheck disable=SC2086 # $flags is two words on purpose
    swiftc -O -swift-version 6 -D Tracing -module-name CapturesWithoutReflection $flags \
        -I "$work/CBindCore" -Xcc -I"$root/Sources/CBindCore/include" \
        "$here/main.swift" "$root/Sources/Bind/Core/Lock.swift" "$root"/Sources/Bind/Tracing/Captures/*.swift \
        "$work/CBindCore.o" -o "$work/probe"
    "$work/probe"
done
