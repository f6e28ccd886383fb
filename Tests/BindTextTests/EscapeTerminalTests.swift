import BindText
import Testing

@Suite("Escape.terminal: trace strings cannot drive a terminal or a CI log")
struct EscapeTerminalTests {
    @Test("plain text, tabs and ordinary non-ASCII pass through unchanged")
    func plain() {
        #expect(Escape.terminal("App/Screen.swift:12: 'título' ✓\tok") == "App/Screen.swift:12: 'título' ✓\tok")
    }

    @Test("control characters, ANSI escapes and C1 controls show as visible escapes on one line")
    func controls() {
        #expect(Escape.terminal("a\u{1B}[31mred\nb\r\u{7F}\u{85}") == "a\\u{1B}[31mred\\u{A}b\\u{D}\\u{7F}\\u{85}")
    }

    @Test("bidirectional overrides and isolates cannot reverse what follows")
    func bidi() {
        let escaped = Escape.terminal("name\u{202E}txt.exe\u{2066}x\u{2069}\u{200F}\u{061C}")
        #expect(escaped == "name\\u{202E}txt.exe\\u{2066}x\\u{2069}\\u{200F}\\u{61C}")
    }

    @Test("a line that starts like a CI workflow command is defused, elsewhere it is left alone")
    func workflowCommands() {
        #expect(Escape.terminal("::error::boom") == "\\u{3A}:error::boom")
        #expect(Escape.terminal("  ##vso[task.complete]") == "  \\u{23}#vso[task.complete]")
        #expect(Escape.terminal("%%teamcity") == "\\u{25}%teamcity")
        #expect(Escape.terminal("see ::error:: here") == "see ::error:: here")
        // A newline from the trace cannot start a fresh line with a command either.
        #expect(!Escape.terminal("x\n::error::y").contains("\n"))
    }

    @Test("JSON spelling escapes the same characters as valid JSON escapes")
    func jsonSpelling() {
        #expect(Escape.terminal("{\"a\":\"\u{202E}\u{85}\"}", spelling: .json) == "{\"a\":\"\\u202e\\u0085\"}")
    }

    @Test("line and paragraph separators and a lone DEL cannot break the line either")
    func separators() {
        #expect(Escape.terminal("a\u{2028}b\u{2029}c") == "a\\u{2028}b\\u{2029}c")
        #expect(Escape.terminal("\u{7F}") == "\\u{7F}")
    }

    @Test("unsafe characters are exactly the ones the escaper escapes")
    func unsafeSet() {
        #expect(Escape.isTerminalUnsafe("\u{1B}"))
        #expect(Escape.isTerminalUnsafe("\u{9B}"))
        #expect(Escape.isTerminalUnsafe("\u{202E}"))
        #expect(!Escape.isTerminalUnsafe("\t"))
        #expect(!Escape.isTerminalUnsafe("é"))
    }
}
