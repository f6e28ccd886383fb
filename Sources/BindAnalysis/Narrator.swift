import BindText
@_spi(Harness) import BindTraceModel

/// Names Outputs, subscriptions and Binder targets the way the user wrote them, for every message.
///
/// An Output is called by its label when it has one, else by its kind, value type and creation
/// site — never by its trace id, which means nothing in the source:
///
/// ```swift
/// Narrator.name(of: state)              // 'title' (String)
/// Narrator.name(of: unlabelledMapState) // map → String at Feed.swift:12
/// Narrator.name(of: unlabelledRelay)    // Relay<Int> at Model.swift:4
/// Narrator.name(of: subscription)       // Binder to Label bound at Cell.swift:30
/// ```
///
/// The findings, `bind-trace replay`'s story and the report's event table (through
/// ``EventNarrator``) all use it, so one Output reads the same everywhere.
package enum Narrator {
    /// An Output's name: `'title' (String)`; unlabelled, `Relay<Int> at Model.swift:4` for a
    /// source and `map → String at Feed.swift:12` for an operator's Output.
    package static func name(kind: OutputKind, valueType: String, site: SourceSite, label: String?) -> String {
        if let label { return "'\(shortened(label))' (\(shortened(valueType)))" }
        switch kind {
        case .output: return "Output<\(shortened(valueType))> at \(place(site))"
        case .relay: return "Relay<\(shortened(valueType))> at \(place(site))"
        default: return "\(kind) → \(shortened(valueType)) at \(place(site))"
        }
    }

    /// A path of named steps as one line, `a → b → c`, with each run of identical steps folded into one
    /// with its count: `'root' (Int) → map → Int ×7 at Others.swift:51 → 'sum' (Int)`. The one place a
    /// path becomes text (glitch paths, cycles, what keeps a leak alive), so `check`, the report and
    /// the JSON output's messages read alike; arrays of ids stay whole.
    ///
    /// - Complexity: O(*n*) in the steps.
    package static func path<Steps: Sequence<String>>(_ steps: Steps) -> String {
        var runs: [(step: String, count: Int)] = []
        for step in steps {
            if let last = runs.last, last.step == step {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((step, 1))
            }
        }
        return runs.map { run in
            guard run.count > 1 else { return run.step }
            // The count reads best next to what repeats, before its site: `map → Int ×7 at Others.swift:51`.
            if let at = run.step.ranges(of: " at ").last {
                return "\(run.step[..<at.lowerBound]) ×\(run.count)\(run.step[at.lowerBound...])"
            }
            return "\(run.step) ×\(run.count)"
        }.joined(separator: " → ")
    }

    /// The longest label or type name a message quotes whole, in characters.
    package static let quotedLimit = 200

    /// `text`, or its first ``quotedLimit`` characters and how many bytes were left out (`Shorten`'s
    /// rules): a trace's strings are untrusted, and a message per Output must not copy a megabyte
    /// label each time.
    package static func shortened(_ text: String) -> String {
        Shorten.text(text, to: quotedLimit, mark: .ellipsisAndBytesLeftOut)
    }

    /// The name of an Output as the replay sees it.
    package static func name(of output: OutputState) -> String {
        name(kind: output.kind, valueType: output.valueType, site: output.site, label: output.label)
    }

    /// The name of an Output the trace never created (only its id is known).
    package static func unknownOutput(_ id: UInt64) -> String { "an Output the trace never created (#\(id))" }

    /// A subscription: `Binder to Label bound at Cell.swift:30`, `closure bound at Screen.swift:12`,
    /// `map's own subscription at Feed.swift:12` for an operator's.
    package static func name(of subscription: SubscriptionState) -> String {
        if subscription.isInternal { return "operator's own subscription at \(place(subscription.site))" }
        return "\(what(target: subscription.target)) bound at \(place(subscription.site))"
    }

    /// What was bound: `Binder to Label`, or `closure` for a closure bind.
    package static func what(target: BinderTarget?) -> String {
        target.map { "Binder to \(name(of: $0))" } ?? "closure"
    }

    /// A Binder target: its type name, without the module.
    package static func name(of target: BinderTarget) -> String {
        guard let dot = target.type.lastIndex(of: "."), !target.type.contains("<") else {
            return shortened(target.type)
        }
        return shortened(String(target.type[target.type.index(after: dot)...]))
    }

    /// `Feed.swift:12`: the file name and line (the module is in the finding's own site).
    package static func place(_ site: SourceSite) -> String {
        let file = site.file.split(separator: "/").last.map(String.init) ?? site.file
        return "\(file):\(site.line)"
    }

    /// How long a duration of `nanoseconds` reads: `850 ms`, `3.2 s`, `4 min`.
    package static func duration(nanoseconds: UInt64) -> String {
        let milliseconds = Double(nanoseconds) / 1_000_000
        if milliseconds < 1 { return "less than 1 ms" }
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        let seconds = milliseconds / 1000
        if seconds < 120 { return "\((seconds * 10).rounded() / 10) s" }
        return "\(Int((seconds / 60).rounded())) min"
    }

    /// `1 update`, `3 updates`.
    /// What a closure captures, in words: "captures ArticleScreen strongly (holding
    /// .viewModel.title: 'title' (String)), Logger weakly", or "captures nothing that keeps an
    /// object alive"; `name` names the Outputs held.
    package static func captures(_ captures: [TraceEvent.Capture], name: (UInt64) -> String) -> String {
        let kept = captures.filter { $0.strength != .weak && $0.strength != .unowned }
        guard !captures.isEmpty else { return "captures nothing" }
        let parts = captures.prefix(8).map { capture -> String in
            let type = shortened(capture.type)
            switch capture.strength {
            case .weak: return "\(type) weakly"
            case .unowned: return "\(type) unowned"
            case .unknown: return "something it could not read (\(type))"
            case .strong:
                guard !capture.holds.isEmpty else { return "\(type) strongly" }
                let held = capture.holds.prefix(3).map { held in
                    held.path.isEmpty ? "itself \(name(held.output))" : "\(shortened(held.path)): \(name(held.output))"
                }
                return "\(type) strongly (holding \(held.joined(separator: ", "))"
                    + (capture.holds.count > 3 ? ", …" : "") + ")"
            }
        }
        let list = parts.joined(separator: ", ") + (captures.count > 8 ? ", …" : "")
        return "captures " + list + (kept.isEmpty ? " (nothing that keeps an object alive)" : "")
    }

    package static func count(_ number: UInt64, _ singular: String, _ plural: String? = nil) -> String {
        number == 1 ? "1 \(singular)" : "\(number) \(plural ?? singular + "s")"
    }
}

extension OutputNode {
    /// The node's name in messages (``Narrator``).
    var narrated: String {
        if let cachedName { return cachedName }
        let name = Narrator.name(kind: kind, valueType: valueType, site: site, label: label)
        cachedName = name
        return name
    }

    /// A finding's line for where this Output is created: `'title' (String) is created here` and `rest`.
    func createdHere(_ rest: String = "") -> Finding.Related {
        Finding.Related(site: site, note: "\(narrated) is created here\(rest)", output: id)
    }
}

extension SubscriptionNode {
    /// The name of the Output this subscription is bound to.
    var outputName: String { outputNode?.narrated ?? Narrator.unknownOutput(output) }
}
