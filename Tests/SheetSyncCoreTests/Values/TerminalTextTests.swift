import SheetSyncCore
import Testing

/// What reaches a terminal shows every control character instead of obeying it.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("Evil\u{1B}[2J", #"Evil\e[2J"#),
        ("\u{1B}]0;pwned\u{07}\u{1B}[1A\u{1B}[2K", #"\e]0;pwned\a\e[1A\e[2K"#),
        ("a\tb\rc\nd\u{08}", #"a\tb\rc\nd\b"#),
        ("nul\u{0}del\u{7F}", #"nul\x00del\x7f"#),
        ("csi\u{9B}2J", #"csi\u{009b}2J"#),
        ("gnp\u{202E}fdp.exe", #"gnp\u{202e}fdp.exe"#),
        ("Din\u{200B}ing", #"Din\u{200b}ing"#),
    ])
    func controlCharactersAreShownAsVisibleEscapes(text: String, shown: String) {
        #expect(TerminalText.visible(text) == shown)
        #expect(!TerminalText.visible(text).unicodeScalars.contains(where: TerminalText.needsEscape))
    }

    @Test func ordinaryTextIsLeftAsItIs() {
        for text in ["Groceries", "Café ünïcødé", "🐶 Pets", "👩‍💻 work", "Ｄｉｎｉｎｇ", "12.50", ""] {
            #expect(TerminalText.visible(text) == text)
        }
    }

    @Test func linesKeepTheirLineBreaksAndLoseEverythingElse() {
        #expect(TerminalText.visibleLines("one\u{1B}[2K\ntwo\r\n") == "one\\e[2K\ntwo\\r\n")
    }
}
