import BindTraceModel

/// A JSON value with members in a fixed order, printed on one line.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    var text: String {
        var result = ""
        write(to: &result)
        return result
    }

    private func write(to result: inout String) {
        switch self {
        case .null: result += "null"
        case .bool(let value): result += value ? "true" : "false"
        case .int(let value): result += String(value)
        case .uint(let value): result += String(value)
        case .string(let value): result += JSONLines.quoted(value)
        case .array(let values):
            result += "["
            for (index, value) in values.enumerated() {
                if index > 0 { result += "," }
                value.write(to: &result)
            }
            result += "]"
        case .object(let members):
            result += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { result += "," }
                result += JSONLines.quoted(key) + ":"
                value.write(to: &result)
            }
            result += "}"
        }
    }
}
