import BindTraceModel

extension Finding {
    /// The command line that explains this finding's event: `bind-trace why app.trace --event 42`,
    /// or nil for a finding that names no event. `trace` is quoted for a POSIX shell when needed.
    package func whyCommand(trace: String) -> String? {
        guard event != 0 else { return nil }
        return "bind-trace why \(Self.shellQuoted(trace)) --event \(event)"
    }

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=,:@%")
        if !text.isEmpty, text.allSatisfy(safe.contains) { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
