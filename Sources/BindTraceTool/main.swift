import BindTraceModel
let reader = try TraceReader(path: CommandLine.arguments[1])
while let e = try reader.next() { print(JSONLines.line(for: e)) }
print(reader.warnings)
