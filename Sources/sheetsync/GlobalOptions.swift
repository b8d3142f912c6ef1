import ArgumentParser
import Foundation
import Logging
import SheetSync

/// Options every subcommand accepts after its name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Config file (else $SHEETSYNC_CONFIG, ./sheetsync.json, ~/.config/sheetsync/config.json).")
    var config: String?

    @Flag(name: .long, help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Print a JSON report on stdout.")
    var json = false

    @Flag(name: .long, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .long, help: "Print what is done, row by row.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together") }
    }

    func workspace() throws -> Workspace {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let config = try Config.locate(explicit: self.config, environment: ProcessInfo.processInfo.environment, currentDirectory: cwd)
        var logger = Logger(label: "sheetsync")
        logger.logLevel = verbose ? .debug : .warning
        // A progress line only on a terminal, and never when output is asked to be quiet or JSON.
        let progress: (@Sendable (String) -> Void)? = (isatty(STDERR_FILENO) == 1 && !quiet && !json) ? Output.progress : nil
        return Workspace(config: config, logger: logger, progress: progress)
    }
}

/// Runs a subcommand body, turning errors into a message on stderr and the right exit code.
func runReporting(_ body: () async throws -> SheetSync.ExitCode) async throws {
    let code: SheetSync.ExitCode
    defer { Output.clearProgress() }
    do {
        code = try await body()
    } catch let error as SheetSyncError {
        Output.error(error.message)
        code = error.exitCode
    } catch let error as ValidationError {
        throw error
    } catch {
        Output.error("internal error: \(error)")
        code = .internalError
    }
    if code != .ok { throw ArgumentParser.ExitCode(code.rawValue) }
}
