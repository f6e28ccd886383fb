import BindTraceModel

extension Finding {
    /// The command line that tells this finding's life (`FindingStory`): `bind-trace why app.trace
    /// --finding 3f2a…`, by its fingerprint (stable across runs and options). `trace` is quoted for a
    /// POSIX shell when needed.
    package func whyCommand(trace: String, fingerprint: String) -> String {
        "bind-trace why \(Self.shellQuoted(trace)) --finding \(fingerprint)"
    }

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=,:@%")
        if !text.isEmpty, text.allSatisfy(safe.contains) { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
