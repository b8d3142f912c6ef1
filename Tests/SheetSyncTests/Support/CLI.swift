import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import Testing

/// Runs the built `sheetsync` binary the way a user (or cron) would.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout decoded as the JSON object `--json` prints (nil when it is not one): tests assert on
        /// fields, never on substrings of pretty-printed text.
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] }

        /// The `{"error": …}` object a failure prints under `--json` (nil when stdout is not one).
        var failure: [String: Any]? { json?["error"] as? [String: Any] }

        /// The failure's code (`FailureCode`) under `--json`, nil when it has none or is no failure.
        var failureCode: FailureCode? { (failure?["code"] as? String).flatMap(FailureCode.init(rawValue:)) }

        /// stdout decoded as what `status --json` prints (nil when it is not that).
        var statusReport: StatusReport? { decoded(as: StatusReport.self) }

        /// stdout decoded as the report a run prints under `--json` (nil when it is not one).
        var report: SyncReport? { decoded(as: SyncReport.self) }

        /// stdout decoded as `T` (a command's own `--json` report), nil when it is not one.
        func decoded<T: Decodable>(as type: T.Type) -> T? { try? JSONDecoder().decode(type, from: Data(stdout.utf8)) }

        /// The report's notices and changes held back: tests match them on code, severity and place.
        var issues: [SyncIssue] { (report?.notices ?? []) + (report?.errors ?? []) }

        /// Whether the report has an issue with this code and severity, at a place that has every part given.
        func has(
            _ code: IssueCode, _ severity: SyncIssue.Severity, tab: Tab? = nil, row: Int? = nil, key: String? = nil,
            file: String? = nil
        ) -> Bool {
            issues.contains {
                $0.code == code && $0.severity == severity && (tab == nil || $0.place.tab == tab) && (row == nil || $0.place.row == row)
                    && (key == nil || $0.place.key == key) && (file == nil || $0.place.file == file)
            }
        }
    }

    /// The `sheetsync` executable built beside the test bundle.
    static func binary() throws -> URL {
        let candidates =
            [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for dir in candidates {
            let url = dir.appendingPathComponent("sheetsync")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw CLIError(message: "the sheetsync binary was not built next to the tests (looked in \(candidates.map(\.path)))")
    }

    struct CLIError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The instant a run stands at when its answer depends on today (`materialize`, `rule list --next`,
    /// `report` without a period): passed as `SHEETSYNC_NOW`, so the test does not depend on the day it runs.
    static let fixedNow = Timestamp(iso: "2026-11-28T12:00:00.000Z")!

    /// The environment that sets the binary's clock to `fixedNow`.
    static let atFixedNow = [SystemClock.fixedNowVariable: fixedNow.description]

    /// The repository's root folder (for `samples/`).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A scratch copy of a sample workbook.
    static func copyOfSample(_ name: String) throws -> URL {
        let target = try TestWorkbook.scratch(name)
        let source = repoRoot.appendingPathComponent("samples").appendingPathComponent(name)
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: target.appendingPathComponent(file))
        }
        return target
    }

    /// Two machines on one workbook: the clean sample, with a config per name (`<name>.json`: store
    /// `<name>.sqlite`, the folder's CSV workbook), each synced once.
    static func storesSharingASample(_ names: [String] = ["a", "b"]) async throws -> URL {
        let folder = try copyOfSample("clean")
        for name in names {
            try Data(#"{"store": "\#(name).sqlite", "remote": {"type": "csv", "path": "."}}"#.utf8)
                .write(to: folder.appendingPathComponent("\(name).json"))
            let run = try await run(["sync", "--config", "\(name).json"], in: folder)
            guard run.status == 0 else { throw CocoaError(.featureUnsupported, userInfo: ["sync": run.stderr]) }
        }
        return folder
    }

    /// A prepared run: the process and the files its output goes to.
    struct Launch {
        var process: Process
        var outputs: URL
        var handles: [FileHandle]

        func finish() throws -> Result {
            defer { try? FileManager.default.removeItem(at: outputs) }
            for handle in handles { try handle.close() }
            func text(_ name: String) throws -> String {
                String(decoding: try Data(contentsOf: outputs.appendingPathComponent(name)), as: UTF8.self)
            }
            return Result(status: process.terminationStatus, stdout: try text("stdout"), stderr: try text("stderr"))
        }
    }

    static func launch(_ arguments: [String], in folder: URL, environment: [String: String]) throws -> Launch {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["SHEETSYNC_CONFIG"] = nil
        env["HOME"] = folder.path
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outputs = try TestWorkbook.scratch("cli-output")
        var handles: [FileHandle] = []
        for name in ["stdout", "stderr"] {
            let url = outputs.appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CLIError(message: "cannot create \(url.path)")
            }
            handles.append(try FileHandle(forWritingTo: url))
        }
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        process.standardInput = FileHandle.nullDevice
        return Launch(process: process, outputs: outputs, handles: handles)
    }

    /// Runs the binary and waits without blocking a cooperative thread (output goes through files).
    @discardableResult
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) async throws -> Result {
        let launch = try launch(arguments, in: folder, environment: environment)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            launch.process.terminationHandler = { _ in continuation.resume() }
            do { try launch.process.run() } catch { continuation.resume(throwing: error) }
        }
        return try launch.finish()
    }

    /// The same, blocking the calling thread (for synchronous callers).
    @discardableResult
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Result {
        let launch = try launch(arguments, in: folder, environment: environment)
        try launch.process.run()
        launch.process.waitUntilExit()
        return try launch.finish()
    }
}

extension StatusReport {
    /// Whether `status` says "pending local changes: none".
    var nothingPending: Bool { pendingLocalChanges.values.allSatisfy { $0 == 0 } }
}
