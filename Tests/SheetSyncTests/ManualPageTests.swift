import Foundation
import Testing

/// docs/sheetsync.1 is generated from the command definitions (scripts/generate-manual.sh); this
/// fails as soon as a command, option, argument or help text changes without regenerating it.
@Suite struct ManualPageTests {
    /// The `.It` entries the generator writes for a command tree, in document order, each with the
    /// help line that follows it.
    private func entries(_ command: [String: Any], isRoot: Bool) -> [(item: String, help: String)] {
        var out: [(String, String)] = []
        if !isRoot { out.append((".It Em \(command["commandName"] as? String ?? "")", command["abstract"] as? String ?? "")) }
        for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool ?? true {
            let repeating = argument["isRepeating"] as? Bool == true ? "..." : ""
            let value = (argument["valueName"] as? String ?? "") + repeating
            let names = (argument["names"] as? [[String: Any]] ?? [])
            let spelled = (names.filter { $0["kind"] as? String == "short" } + names.filter { $0["kind"] as? String != "short" })
                .map { ($0["kind"] as? String == "long" ? "-" : "") + ($0["name"] as? String ?? "") }
                .joined(separator: " , ")
            let item: String
            switch argument["kind"] as? String {
            case "positional": item = ".It Ar \(value)"
            case "option": item = ".It Fl \(spelled) Ar \(value)"
            default: item = ".It Fl \(spelled)"
            }
            out.append((item, argument["abstract"] as? String ?? ""))
        }
        for sub in command["subcommands"] as? [[String: Any]] ?? [] { out += entries(sub, isRoot: false) }
        return out
    }

    @Test func theManPageIsInStepWithTheCommands() async throws {
        let folder = try TestWorkbook.scratch("manual")
        let dump = try await CLI.run(["--experimental-dump-help"], in: folder)
        #expect(dump.status == 0)
        let root = try #require(dump.json?["command"] as? [String: Any])
        let page = try String(contentsOf: CLI.repoRoot.appendingPathComponent("docs/sheetsync.1"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let items = lines.enumerated().filter { $0.element.hasPrefix(".It ") }
        let expected = entries(root, isRoot: true)
        let regenerate = "docs/sheetsync.1 is out of step with the commands: run scripts/generate-manual.sh"
        #expect(items.map(\.element) == expected.map(\.item), "\(regenerate)")
        for ((index, _), entry) in zip(items, expected) where !entry.help.isEmpty {
            #expect(lines[index + 1] == entry.help, "\(entry.item): \(regenerate)")
        }
        // Discussions (the root's getting-started text, report's default period) as written.
        let prose = lines.filter { !$0.hasPrefix(".") }.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func discussions(_ command: [String: Any]) -> [String] {
            [command["discussion"] as? String].compactMap { $0 } + (command["subcommands"] as? [[String: Any]] ?? []).flatMap(discussions)
        }
        let all = discussions(root)
        #expect(all.count >= 2)
        for text in all {
            #expect(prose.contains(text.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(regenerate)")
        }
        #expect(page.contains(".Nd \"\(root["abstract"] as? String ?? "")\""))
    }

    @Test func completionScriptsKnowEveryCommand() async throws {
        let folder = try TestWorkbook.scratch("completions")
        for shell in ["bash", "zsh", "fish"] {
            let run = try await CLI.run(["--generate-completion-script", shell], in: folder)
            #expect(run.status == 0, "\(shell)")
            for word in ["report", "category", "archive", "unreimbursed", "allow-mass-delete"] {
                #expect(run.stdout.contains(word), "\(shell) completion lacks \(word)")
            }
        }
    }
}
