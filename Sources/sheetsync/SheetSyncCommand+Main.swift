import ArgumentParser
import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore

extension SheetSyncCommand {
    /// argument-parser's own `main`, except that a usage error (exit 64) also gets a hint — the
    /// nearest subcommand for a typo, or where an option misplaced before the subcommand belongs —
    /// and, under `--json`, any failure still prints the `{"error": …}` object on stdout (the exit
    /// code stays what argument-parser chose).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // One command per process: what it read and planned is left for the exit to reclaim.
        ExitArena.enable()
        // Before anything opens a store: SQLite's process-wide settings can change only now.
        SQLiteProcessSettings.apply()
        // `help tabs`: the column reference (docs/tabs.md), which is no command's help.
        if arguments == ["help", "tabs"] {
            Output.line(ColumnReference.markdown)
            Foundation.exit(0)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ArgumentParser.ExitCode {
            // `GlobalOptions.reporting` has printed the failure already.
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            // `--help`, `--version` and the completion scripts end here too, with their output.
            guard code != .success else { exit(withError: error) }
            var failure = SheetSyncError(SheetSync.ProcessExitCode(rawValue: code.rawValue) ?? .internalError, message(for: error))
            if failure.exitCode == .usage { failure.hint = UsageHints.hint(for: arguments) }
            Output.failure(failure, json: arguments.prefix(while: { $0 != "--" }).contains("--json"), shown: fullMessage(for: error))
            Foundation.exit(code.rawValue)
        }
    }
}
