import Foundation
import Testing

/// The README is the front door: its two commands come first and exist, its command table names every
/// command, and every link in it and in docs/ leads to a file.
@Suite struct ReadmeTests {
    private let readme = (try? String(contentsOf: CLI.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    @Test func theTwoCommandsComeFirstAndAreScriptsThatRun() throws {
        let block = try #require(readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let commands = block.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        #expect(commands == ["scripts/run-sample.sh", "scripts/test.sh"])
        for command in commands {
            #expect(FileManager.default.isExecutableFile(atPath: CLI.repoRoot.appendingPathComponent(command).path), "\(command)")
        }
    }

    @Test func theCommandTableNamesEveryCommand() async throws {
        let folder = try TestWorkbook.scratch("readme")
        let dump = try await CLI.run(["--experimental-dump-help"], in: folder)
        let root = try #require(dump.json?["command"] as? [String: Any])
        func leaves(_ command: [String: Any], _ path: [String]) -> [[String]] {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            if subcommands.isEmpty { return [path] }
            return subcommands.flatMap { leaves($0, path + [$0["commandName"] as? String ?? ""]) }
        }
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `sheetsync ") }
        // `help` is argument-parser's own; `help tabs` has its row.
        for path in leaves(root, []) where path != ["help"] {
            let name = path.last ?? ""
            let parent = "sheetsync " + path.dropLast().joined(separator: " ")
            let named = rows.contains { row in
                row.contains("sheetsync \(path.joined(separator: " "))")
                    || (row.hasPrefix("| `\(parent.trimmingCharacters(in: .whitespaces))") && row.contains("`\(name)"))
            }
            #expect(named, "README's command table lacks `sheetsync \(path.joined(separator: " "))`")
        }
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
    }

    @Test func everyLinkInTheReadmeAndDocsLeadsToAFile() throws {
        let docs = CLI.repoRoot.appendingPathComponent("docs")
        let pages =
            [CLI.repoRoot.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil))
            + (try FileManager.default.contentsOfDirectory(at: docs.appendingPathComponent("history"), includingPropertiesForKeys: nil))
        let link = /\]\(([^)#:]+)(#[^)]*)?\)/
        for page in pages where page.pathExtension == "md" {
            let text = try String(contentsOf: page, encoding: .utf8)
            for match in text.matches(of: link) {
                let target = page.deletingLastPathComponent().appendingPathComponent(String(match.output.1))
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page.lastPathComponent): \(match.output.1)")
            }
        }
    }
}
