#!/usr/bin/env python3
"""Counts the public symbols of our library modules that have a `///` doc comment.

Reads the same symbol graphs as Scripts/public-api.py (`swift package dump-symbol-graph
--skip-synthesized-members`, plain build, SPI excluded), so a symbol here is a line of
docs/public-api.txt. A symbol is documented when its graph entry carries a doc comment of its own
(`docComment` from its own module); one that only inherits a protocol requirement's documentation
(`hash(into:)`, whose comment the graph copies from Swift) is not.
Declarations the compiler makes (an enum's `init(rawValue:)`: no source location) cannot carry a
comment and are counted apart, not as missing.

Usage: Scripts/doc-coverage.py                  the figures per module
       Scripts/doc-coverage.py --missing        also every undocumented symbol, with its file and line
       Scripts/doc-coverage.py --check MODULE…  exit 1 when a public symbol of MODULE lacks a comment
       Scripts/doc-coverage.py --directory DIR  read symbol graphs already dumped into DIR
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("public_api", os.path.join(HERE, "public-api.py"))
public_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(public_api)


def coverage(directory):
    """Per module: documented, undocumented (path, file:line) and compiler-made symbol counts."""
    result = {}
    for module in public_api.MODULES:
        seen, documented, missing, implicit = set(), 0, [], 0
        names = [name for name in os.listdir(directory)
                 if name == f"{module}.symbols.json" or name.startswith(f"{module}@")]
        for name in sorted(names):
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                if symbol.get("spi") or symbol["accessLevel"] not in ("public", "open"):
                    continue
                # One symbol per line of docs/public-api.txt (the same key), counted once across builds' files.
                declaration = " ".join(
                    "".join(fragment["spelling"] for fragment in symbol["declarationFragments"]).split())
                key = (symbol["kind"]["identifier"], ".".join(symbol["pathComponents"]), declaration)
                if key in seen:
                    continue
                seen.add(key)
                comment = symbol.get("docComment", {})
                # A comment inherited from a protocol requirement names the requirement's module (Swift's
                # `hash(into:)`): the symbol has none of its own.
                own = comment.get("module", module) == module
                location = symbol.get("location")
                if own and any(line.get("text", "").strip() for line in comment.get("lines", [])):
                    documented += 1
                elif location is None:
                    implicit += 1
                else:
                    path = location["uri"].removeprefix("file://")
                    path = os.path.relpath(path, os.path.dirname(HERE))
                    line = location["position"]["line"] + 1
                    missing.append((".".join(symbol["pathComponents"]), f"{path}:{line}"))
        result[module] = (documented, sorted(missing), implicit)
    return result


def main():
    arguments = sys.argv[1:]
    directory = None
    if "--directory" in arguments:
        index = arguments.index("--directory")
        directory = arguments[index + 1]
        del arguments[index:index + 2]
    directory = directory or public_api.symbol_graph_directory(public_api.BUILDS["plain"])
    result = coverage(directory)
    total_documented = total_symbols = 0
    for module, (documented, missing, implicit) in result.items():
        symbols = documented + len(missing)
        if symbols + implicit == 0:
            continue
        total_documented += documented
        total_symbols += symbols
        percent = 100 * documented / symbols if symbols else 100
        extra = f" (+{implicit} made by the compiler)" if implicit else ""
        print(f"{module}: {documented}/{symbols} documented, {percent:.0f}%{extra}")
        if "--missing" in arguments:
            for path, site in missing:
                print(f"    {site}: {path}")
    percent = 100 * total_documented / total_symbols if total_symbols else 100
    print(f"all: {total_documented}/{total_symbols} documented, {percent:.0f}%")
    if "--check" in arguments:
        checked = arguments[arguments.index("--check") + 1:]
        failing = [(module, path, site) for module in checked for path, site in result[module][1]]
        for module, path, site in failing:
            print(f"{site}: error: public {module} symbol {path} has no doc comment", file=sys.stderr)
        if failing:
            sys.exit(1)


if __name__ == "__main__":
    main()
