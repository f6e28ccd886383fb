#!/usr/bin/env python3
"""Checks the package's public API against the checked-in list, docs/public-api.txt.

The list holds one line per public symbol of our library modules, as the compiler sees it (SwiftPM's
symbol graphs: `swift package dump-symbol-graph`), SPI excluded: `@_spi(Harness)` symbols are for the
package's own harnesses in Fuzz/ and Benchmarks/, invisible without an explicit `@_spi` import.
A symbol that appears, disappears or changes its declaration without the list changing fails, in
the plain build or in the `Tracing` trait's (`.build-tracing`): both builds have one public API.

Usage: Scripts/public-api.py           compare (exit 1 and a diff when they differ)
       Scripts/public-api.py --update  rewrite docs/public-api.txt
       Scripts/public-api.py --count   the counts by module only
"""
import difflib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "docs", "public-api.txt")
# Every library module of ours (products and the modules they re-export), in pipeline order.
MODULES = ["BindTraceFormat", "Bind", "BindTesting", "BindTraceModel", "BindAnalysis", "BindText", "BindGraph",
           "BindReport"]
HEADER = """\
# The public API of Bind's library modules, one symbol a line: module, kind, path, declaration.
# Written by Scripts/public-api.py --update; `make test` fails when the code and this list differ.
# Count: {total} public symbols (SPI excluded) — {counts}.
"""


# The builds whose API must be the list: plain, and with the Tracing trait (its own scratch path, as
# the Makefile builds it).
BUILDS = {"plain": [], "Tracing": ["--traits", "Tracing", "--scratch-path", ".build-tracing"]}


def symbol_graph_directory(build_options):
    run = subprocess.run(
        ["swift", "package", *build_options, "dump-symbol-graph", "--skip-synthesized-members"],
        cwd=ROOT, capture_output=True, text=True)
    output = run.stdout + run.stderr
    if run.returncode != 0:
        # SwiftPM also extracts the test runner's modules, which exist only once the tests were built
        # (a fresh clone has not): only a failure for one of our library modules matters.
        failed = set(re.findall(r"Failed to emit symbol graph for '([^']+)'", output))
        if not failed or failed & set(MODULES):
            sys.exit(f"public-api.py: swift package dump-symbol-graph failed:\n{output}")
    found = re.search(r"Files written to (\S+)", output) or re.search(r'"-output-dir", "([^"]+)"', output)
    if found is None:
        sys.exit("public-api.py: dump-symbol-graph did not say where it wrote the symbol graphs")
    directory = found.group(1)
    missing = [module for module in MODULES if not os.path.exists(os.path.join(directory, f"{module}.symbols.json"))]
    if missing:
        sys.exit(f"public-api.py: no symbol graph for {', '.join(missing)} in {directory}:\n{output}")
    return directory


def public_symbols(directory):
    """The sorted lines of the list, and the count per module."""
    lines, counts = set(), {}
    for module in MODULES:
        counts[module] = 0
        names = [name for name in os.listdir(directory)
                 if name == f"{module}.symbols.json" or name.startswith(f"{module}@")]
        for name in sorted(names):
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                if symbol.get("spi") or symbol["accessLevel"] not in ("public", "open"):
                    continue
                declaration = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
                declaration = " ".join(declaration.split())
                path = ".".join(symbol["pathComponents"])
                kind = symbol["kind"]["identifier"].removeprefix("swift.")
                line = f"{module}\t{kind}\t{path}\t{declaration}"
                if line not in lines:
                    lines.add(line)
                    counts[module] += 1
    return sorted(lines), counts


def main():
    lines, counts = public_symbols(symbol_graph_directory(BUILDS["plain"]))
    total = sum(counts.values())
    summary = ", ".join(f"{module} {count}" for module, count in counts.items())
    if sys.argv[1:] == ["--count"]:
        print(f"{total} public symbols (SPI excluded): {summary}")
        return
    text = HEADER.format(total=total, counts=summary) + "\n".join(lines) + "\n"
    traced, _ = public_symbols(symbol_graph_directory(BUILDS["Tracing"]))
    if traced != lines:
        print("\n".join(difflib.unified_diff(lines, traced, "plain build", "Tracing build", lineterm="", n=0)))
        sys.exit("public-api.py: the Tracing build's public API differs from the plain build's: "
                 "a trait must not change the API (give the plain build the same declarations as no-ops)")
    if sys.argv[1:] == ["--update"]:
        with open(LIST, "w", encoding="utf-8") as file:
            file.write(text)
        print(f"public-api.py: wrote {os.path.relpath(LIST, ROOT)}: {total} public symbols ({summary})")
        return
    try:
        with open(LIST, encoding="utf-8") as file:
            listed = file.read()
    except FileNotFoundError:
        listed = ""
    if listed == text:
        print(f"public-api.py: the public API (plain and Tracing builds) is the list: {total} public symbols "
              f"({summary})")
        return
    diff = difflib.unified_diff(
        listed.splitlines(), text.splitlines(), "docs/public-api.txt", "the code", lineterm="", n=0)
    print("\n".join(diff))
    sys.exit("public-api.py: the public API differs from docs/public-api.txt: decide, then run "
             "Scripts/public-api.py --update and commit the list with the change")


if __name__ == "__main__":
    main()
