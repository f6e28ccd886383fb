import Testing

@testable import BindOutput

@Suite("TerminalText: trace strings cannot drive a terminal or a CI log")
struct TerminalTextTests {
    @Test("plain text, tabs and ordinary non-ASCII pass through unchanged")
    func plain() {
        #expect(TerminalText.line("App/Screen.swift:12: 'título' ✓\tok") == "App/Screen.swift:12: 'título' ✓\tok")
    }

    @Test("control characters, ANSI escapes and C1 controls show as visible escapes on one line")
    func controls() {
        #expect(TerminalText.line("a\u{1B}[31mred\nb\r\u{7F}\u{85}") == "a\\u{1B}[31mred\\u{A}b\\u{D}\\u{7F}\\u{85}")
    }

    @Test("bidirectional overrides and isolates cannot reverse what follows")
    func bidi() {
        let escaped = TerminalText.line("name\u{202E}txt.exe\u{2066}x\u{2069}\u{200F}\u{061C}")
        #expect(escaped == "name\\u{202E}txt.exe\\u{2066}x\\u{2069}\\u{200F}\\u{61C}")
    }

    @Test("a line that starts like a CI workflow command is defused, elsewhere it is left alone")
    func workflowCommands() {
        #expect(TerminalText.line("::error::boom") == "\\u{3A}:error::boom")
        #expect(TerminalText.line("  ##vso[task.complete]") == "  \\u{23}#vso[task.complete]")
        #expect(TerminalText.line("%%teamcity") == "\\u{25}%teamcity")
        #expect(TerminalText.line("see ::error:: here") == "see ::error:: here")
        // A newline from the trace cannot start a fresh line with a command either.
        #expect(!TerminalText.line("x\n::error::y").contains("\n"))
    }

    @Test("JSON spelling escapes the same characters as valid JSON escapes")
    func jsonSpelling() {
        #expect(TerminalText.line("{\"a\":\"\u{202E}\u{85}\"}", spelling: .json) == "{\"a\":\"\\u202e\\u0085\"}")
    }
}
