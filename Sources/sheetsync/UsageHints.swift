import ArgumentParser
import SheetSyncCore

/// What to say after a usage error, from the command line as typed.
enum UsageHints {
    /// Options of the bare `sheetsync` command; any other option before the subcommand is misplaced.
    private static let rootOptions: Set<String> = [
        "-h", "--help", "--version", "--generate-completion-script", "--experimental-dump-help",
    ]

    static func hint(for arguments: [String]) -> String? {
        let roots = SheetSyncCommand.configuration.subcommands
        if let first = arguments.first, first.hasPrefix("-"), !rootOptions.contains(first) {
            return misplacedOptions(arguments, roots: roots)
        }
        return typo(arguments, commands: roots, prefix: "sheetsync")
    }

    /// `sheetsync --dry-run sync` → `options go after the subcommand: sheetsync sync --dry-run`.
    private static func misplacedOptions(_ arguments: [String], roots: [any ParsableCommand.Type]) -> String {
        let names = Set(roots.map { $0._commandName })
        guard let index = arguments.firstIndex(where: { names.contains($0) }) else {
            return "options go after the subcommand, e.g. sheetsync sync \(arguments.joined(separator: " ")); "
                + "`sheetsync --help` lists the subcommands"
        }
        // Everything from the subcommand on stays in order; the options typed before it follow the
        // subcommand's own words (its nested subcommand and arguments).
        let rest = Array(arguments[index...])
        let path = commandWords(rest, commands: roots)
        var line = ["sheetsync"]
        line.append(contentsOf: rest[..<path])
        line.append(contentsOf: arguments[..<index])
        line.append(contentsOf: rest[path...])
        return "options go after the subcommand: \(line.joined(separator: " "))"
    }

    /// How many leading words of `arguments` name a (nested) subcommand.
    private static func commandWords(_ arguments: [String], commands: [any ParsableCommand.Type]) -> Int {
        guard let word = arguments.first, let command = commands.first(where: { $0._commandName == word }) else { return 0 }
        return 1 + commandWords(Array(arguments.dropFirst()), commands: command.configuration.subcommands)
    }

    /// `sheetsync synk` → `did you mean 'sheetsync sync'?`; `sheetsync category ad` → `… 'sheetsync category add'?`.
    private static func typo(_ arguments: [String], commands: [any ParsableCommand.Type], prefix: String) -> String? {
        guard !commands.isEmpty, let word = arguments.first, !word.hasPrefix("-") else { return nil }
        if let command = commands.first(where: { $0._commandName == word }) {
            return typo(Array(arguments.dropFirst()), commands: command.configuration.subcommands, prefix: "\(prefix) \(word)")
        }
        let names = commands.map { $0._commandName }
        if let near = NearestName.suggestion(for: word, among: names) { return "did you mean '\(prefix) \(near)'?" }
        return "'\(word)' is not a subcommand of \(prefix); the subcommands are \(names.joined(separator: ", "))"
    }
}
