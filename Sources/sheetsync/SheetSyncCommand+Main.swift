import ArgumentParser
import Foundation
import SheetSync

extension SheetSyncCommand {
    /// argument-parser's own `main`, except that a usage error (exit 64) also gets a hint — the
    /// nearest subcommand for a typo, or where an option misplaced before the subcommand belongs —
    /// and, under `--json`, the same `{"error": …}` object every other failure prints on stdout.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
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
            guard code.rawValue == SheetSync.ExitCode.usage.rawValue else { exit(withError: error) }
            var failure = SheetSyncError(.usage, message(for: error))
            failure.hint = UsageHints.hint(for: arguments)
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            if let hint = failure.hint { Output.error("hint: \(hint)") }
            if arguments.prefix(while: { $0 != "--" }).contains("--json") {
                Output.json(JSONFailure(error: JSONError(failure), version: SheetSyncVersion.current))
            }
            Foundation.exit(code.rawValue)
        }
    }
}
