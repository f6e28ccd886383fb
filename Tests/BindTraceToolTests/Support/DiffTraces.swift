/// Two runs of one small app for `bind-trace diff`, written in the trace format: 'email' mapped to
/// 'normalized' (shown by a Binder) and to 'valid'. Each change a test needs is a parameter, and
/// `idBase` shifts every id and address, as a second run of the same program would.
struct DiffApp {
    var idBase: UInt64 = 0
    /// A closure bound in a cell's scope and never unbound: a leaked subscription at App/Cell.swift:12.
    var leaks = false
    /// How many times the app updates 'email'.
    var updates = 1
    /// 'valid' (email → map at line 5) is gone.
    var dropsValid = false
    /// A filter 'non-empty' on 'normalized' at line 6 is new.
    var addsFilter = false
    /// Labels of 'email' and 'normalized'.
    var labels = ("email", "normalized")
    /// Write the end record (a run that stopped normally).
    var ends = true

    var bytes: [UInt8] {
        let base = idBase
        var trace = TraceFileWriter()
        trace.thread(1)
        trace.output(base + 1, type: "String", file: "App/Form.swift", line: 3, label: labels.0)
        trace.output(base + 2, kind: .map, type: "String", file: "App/Form.swift", line: 4, label: labels.1)
        trace.edge(base + 1, base + 2, .map)
        trace.bind(base + 1, to: base + 1, file: "App/Form.swift", line: 4, isInternal: true)
        if !dropsValid {
            trace.output(base + 3, kind: .map, type: "Bool", file: "App/Form.swift", line: 5, label: "valid")
            trace.edge(base + 1, base + 3, .map)
            trace.bind(base + 2, to: base + 1, file: "App/Form.swift", line: 5, isInternal: true)
        }
        if addsFilter {
            trace.output(base + 4, kind: .filter, type: "String", file: "App/Form.swift", line: 6, label: "non-empty")
            trace.edge(base + 2, base + 4, .filter)
            trace.bind(base + 3, to: base + 2, file: "App/Form.swift", line: 6, isInternal: true)
        }
        trace.bind(base + 5, to: base + 2, file: "App/View.swift", line: 20, target: ("App.Label", 0x7000 + base))
        for _ in 0..<updates {
            let root = trace.update(base + 1)
            trace.update(base + 2, cause: (base + 1, root))
        }
        if leaks {
            trace.beginScope(base + 9, name: "cell", file: "App/Cell.swift", line: 10)
            trace.bind(base + 6, to: base + 1, file: "App/Cell.swift", line: 12, scope: base + 9)
            trace.endScope(base + 9)
        }
        if ends { trace.end() }
        return trace.bytes
    }
}
