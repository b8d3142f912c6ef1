import ArgumentParser
import Foundation
import Logging
import SheetSync

/// Options every subcommand accepts after its name.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long, help: "Config file (else $SHEETSYNC_CONFIG, ./sheetsync.json, ~/.config/sheetsync/config.json).",
        completion: .file(extensions: ["json"]))
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
        let environment = ProcessInfo.processInfo.environment
        let config = try Config.locate(explicit: self.config, environment: environment, currentDirectory: cwd)
        var logger = Logger(label: "sheetsync") { _ in OutputLogHandler() }
        logger.logLevel = verbose ? .debug : .warning
        // A progress line only on a terminal, and never when output is asked to be quiet or JSON.
        let progress: (@Sendable (String) -> Void)? = (isatty(STDERR_FILENO) == 1 && !quiet && !json) ? Output.progress : nil
        return Workspace(config: config, clock: try SystemClock.forRun(environment: environment), logger: logger, progress: progress)
    }
}

extension GlobalOptions {
    /// Runs a subcommand body, turning errors into a message on stderr (and, with `--json`, an
    /// `{"error": …}` object on stdout) and the right exit code.
    func reporting(_ body: @escaping @Sendable () async throws -> SheetSync.ProcessExitCode) async throws {
        let code: SheetSync.ProcessExitCode
        defer { Output.clearProgress() }
        do {
            code = try await Interrupts.run(json: json, body)
        } catch let error as ValidationError {
            throw error
        } catch {
            let failure = SheetSyncError.classify(error, store: storePath) ?? SheetSyncError(.internalError, "internal error: \(error)")
            Output.failure(failure, json: json)
            code = failure.exitCode
        }
        if code != .ok { throw ArgumentParser.ExitCode(code.rawValue) }
    }

    /// The configured store's path, for messages about it.
    private var storePath: String {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        // Only words for a message about a failure already being reported.
        return (try? Config.locate(explicit: config, environment: ProcessInfo.processInfo.environment, currentDirectory: cwd))?.store.path
            ?? "(the configured store)"
    }
}

/// `{"error": {...}, "version": "0.3.0"}`
struct JSONFailure: Encodable {
    var error: JSONError
    var version: String
}

/// A failure as `--json` reports it.
struct JSONError: Encodable {
    var message: String
    /// What to do about it.
    var hint: String
    var exitCode: Int32
    var kind: String
    /// The kind of failure where it has a name of its own (`xlsx-password-protected`); absent otherwise.
    var code: String?

    init(_ error: SheetSyncError) {
        message = error.message
        hint = error.hintOrDefault
        code = error.code
        exitCode = error.exitCode.rawValue
        switch error.exitCode {
        case .ok: kind = "ok"
        case .usage: kind = "usage"
        case .dataError: kind = "data"
        case .temporaryFailure: kind = "temporary"
        case .configuration: kind = "configuration"
        case .internalError: kind = "internal"
        case .interrupted, .terminated: kind = "interrupted"
        }
    }
}
