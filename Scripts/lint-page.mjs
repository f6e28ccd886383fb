#!/usr/bin/env node
// Checks the report page's style sheet and script (Sources/BindReport/HTML/*.css, *.js), run by `make lint`.
// No npm registry is needed: only Node's own parser and a few formatting rules of ours.
//
// Usage: node Scripts/lint-page.mjs FILE...
// - JavaScript must parse (node's own parser, as `node --check` does) and start with "use strict" in its IIFE;
// - CSS braces and comments must balance, and every declaration end with ';' before '}';
// - both: UTF-8, LF line ends, no tabs, no trailing spaces, at most 120 columns, indentation in steps of
//   2 spaces, no two blank lines in a row, one final newline.
// Prints `file:line: message` per finding; exit status 1 when there is any.
import { readFileSync } from "node:fs";
import { Script } from "node:vm";

const MAX_COLUMNS = 120;
const findings = [];
const report = (file, line, message) => findings.push(`${file}:${line}: ${message}`);

function checkLayout(file, text) {
  if (text.includes("\r")) { report(file, 1, "CR line ends (use LF)"); }
  if (!text.endsWith("\n") || text.endsWith("\n\n")) { report(file, 1, "must end with exactly one newline"); }
  const lines = text.split("\n");
  let blank = 0;
  lines.forEach((line, index) => {
    const number = index + 1;
    if (line.includes("\t")) { report(file, number, "tab (indent with spaces)"); }
    if (/[ ]+$/.test(line)) { report(file, number, "trailing spaces"); }
    if ([...line].length > MAX_COLUMNS) { report(file, number, `longer than ${MAX_COLUMNS} columns`); }
    const indent = /^ */.exec(line)[0].length;
    if (indent % 2 !== 0) { report(file, number, "indentation is not a multiple of 2 spaces"); }
    blank = line.trim() === "" && index < lines.length - 1 ? blank + 1 : 0;
    if (blank > 1) { report(file, number, "two blank lines in a row"); }
  });
}

function checkScript(file, text) {
  try {
    new Script(text, { filename: file });
  } catch (error) {
    const line = /:(\d+)/.exec(error.stack || "")?.[1] ?? "1";
    report(file, line, `does not parse: ${error.message}`);
  }
  if (!/^\(function \(\) \{\n {2}"use strict";/.test(text)) {
    report(file, 1, "must be one IIFE starting with \"use strict\" (nothing leaks into the page's globals)");
  }
}

function checkStyle(file, text) {
  let depth = 0;
  let line = 1;
  let last = "";
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === "\n") { line += 1; }
    if (character === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2);
      if (end < 0) { report(file, line, "unclosed comment"); return; }
      line += text.slice(index, end).split("\n").length - 1;
      index = end + 1;
      continue;
    }
    if (character === "{") { depth += 1; }
    if (character === "}") {
      depth -= 1;
      if (depth < 0) { report(file, line, "'}' without '{'"); return; }
      if (last !== ";" && last !== "{" && last !== "}") { report(file, line, "declaration without ';' before '}'"); }
    }
    if (!/\s/.test(character)) { last = character; }
  }
  if (depth !== 0) { report(file, line, "unbalanced braces"); }
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node Scripts/lint-page.mjs FILE...");
  process.exit(2);
}
for (const file of files) {
  const text = readFileSync(file, "utf8");
  checkLayout(file, text);
  if (file.endsWith(".js")) { checkScript(file, text); }
  else if (file.endsWith(".css")) { checkStyle(file, text); }
  else { report(file, 1, "neither .js nor .css"); }
}
findings.forEach((finding) => console.log(finding));
process.exit(findings.length ? 1 : 0);
