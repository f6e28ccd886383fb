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
        object.addFields(of: event.kind)
        return object.text + "}"
    }
}

/// Builds one JSON object's text, member by member.
struct JSONObject {
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

    /// A bind's fields (EventKinds.toml, `custom`).
    mutating func addBound(_ binding: TraceEvent.Binding) {
        add("subscription", binding.subscription)
        add("output", binding.output)
        add("site", binding.site.description)
        if binding.isInternal { add("internal", true) }
        if let target = binding.target {
            add("target_type", target.type)
            add("target", target.identity)
        }
        if binding.scope != 0 { add("scope", binding.scope) }
        if binding.preexisting { add("preexisting", true) }
        add(binding.cause)
    }

    /// A `captured` event's list: an array of objects, each with its held Outputs.
    mutating func add(_ key: String, _ captures: [TraceEvent.Capture]) {
        self.key(key)
        text += "["
        for (index, capture) in captures.enumerated() {
            if index > 0 { text += "," }
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
            text += member.text + "}"
        }
        text += "]"
    }
}
