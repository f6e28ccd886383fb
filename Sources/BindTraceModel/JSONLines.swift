import BindText

/// Writes events as JSON Lines: one JSON object per event, for grep and jq.
///
/// Strings from the trace are untrusted: they are written by the one JSON string escaper,
/// `Escape.jsonString` (RFC 8259 and inert on a terminal or in HTML), so each line is exactly one
/// valid JSON object.
@_spi(Harness) public enum JSONLines {
    /// One event as a single-line JSON object.
    public static func line(for event: TraceEvent) -> String {
        var object = JSONObject()
        object.add("seq", event.sequence)
        object.add("time_ns", event.time)
        object.add("thread", UInt64(event.thread))
        object.add("offset", UInt64(event.offset))
        object.add("event", event.kind.name)
        switch event.kind {
        case .outputCreated(let creation):
            object.add("output", creation.output)
            object.add("kind", creation.kind.description)
            object.add("type", creation.valueType)
            object.add("site", creation.site.description)
            if let label = creation.label { object.add("label", label) }
            if creation.scope != 0 { object.add("scope", creation.scope) }
            if creation.preexisting { object.add("preexisting", true) }
            object.add(creation.cause)
        case .edge(let source, let derived, let operation):
            object.add("source", source)
            object.add("derived", derived)
            object.add("operator", operation.description)
        case .innerSwitch(let flatMap, let inner):
            object.add("flatMap", flatMap)
            object.add("inner", inner)
        case .bound(let binding):
            object.add("subscription", binding.subscription)
            object.add("output", binding.output)
            object.add("site", binding.site.description)
            if binding.isInternal { object.add("internal", true) }
            if let target = binding.target {
                object.add("target_type", target.type)
                object.add("target", target.identity)
            }
            if binding.scope != 0 { object.add("scope", binding.scope) }
            if binding.preexisting { object.add("preexisting", true) }
            object.add(binding.cause)
        case .updated(let output, let cause, let preview), .fired(let output, let cause, let preview):
            object.add("output", output)
            object.add(cause)
            if let preview { object.add("value", preview) }
        case .unbound(let subscription, let reason, let cause):
            object.add("subscription", subscription)
            object.add("reason", reason.description)
            object.add(cause)
        case .dangling(let subscription):
            object.add("subscription", subscription)
        case .released(let output):
            object.add("output", output)
        case .scopeBegan(let id, let parent, let name, let site):
            object.add("scope", id)
            if parent != 0 { object.add("parent", parent) }
            object.add("name", name)
            object.add("site", site.description)
        case .scopeEnded(let id):
            object.add("scope", id)
        case .mark(let name, let scope):
            object.add("name", name)
            if scope != 0 { object.add("scope", scope) }
        case .labeled(let output, let label):
            object.add("output", output)
            object.add("label", label)
        case .subscriptionContained(let subscription, let container):
            object.add("subscription", subscription)
            object.add("container", container)
        case .handleReleased(let subscription):
            object.add("subscription", subscription)
        case .calledAt(let root, let site):
            // "event" is the kind's name: the update it belongs to is "root".
            object.add("root", root)
            object.add("site", site.description)
        case .stopped(let derived, let source):
            object.add("output", derived)
            object.add("source", source)
        case .captured(let subscription, let captures):
            object.add("subscription", subscription)
            object.key("captures")
            object.text += "["
            for (index, capture) in captures.enumerated() {
                if index > 0 { object.text += "," }
                var member = JSONObject()
                member.add("strength", capture.strength.rawValue)
                member.add("type", capture.type)
                if capture.identity != 0 { member.add("identity", capture.identity) }
                if !capture.holds.isEmpty {
                    member.key("holds")
                    member.text += "["
                    for (heldIndex, held) in capture.holds.enumerated() {
                        if heldIndex > 0 { member.text += "," }
                        var heldObject = JSONObject()
                        heldObject.add("path", held.path)
                        heldObject.add("output", held.output)
                        member.text += heldObject.text + "}"
                    }
                    member.text += "]"
                }
                object.text += member.text + "}"
            }
            object.text += "]"
        case .resumed(let delivery, let cause):
            if let delivery {
                object.add("delivery", delivery.event)
                object.add("subscription", delivery.subscription)
            }
            object.add(cause)
        }
        return object.text + "}"
    }
}

/// Builds one JSON object's text, member by member.
private struct JSONObject {
    var text = "{"

    mutating func key(_ key: String) {
        if text.count > 1 { text += "," }
        text += "\"\(key)\":"
    }

    mutating func add(_ key: String, _ value: UInt64) {
        self.key(key)
        text += String(value)
    }

    mutating func add(_ key: String, _ value: String) {
        self.key(key)
        Escape.jsonString(value, into: &text)
    }

    mutating func add(_ key: String, _ value: Bool) {
        self.key(key)
        text += value ? "true" : "false"
    }

    mutating func add(_ cause: TraceCause?) {
        guard let cause else { return }
        add("cause_subscription", cause.subscription)
        add("cause_event", cause.event)
    }
}
