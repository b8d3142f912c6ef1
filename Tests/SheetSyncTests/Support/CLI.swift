import Foundation
import Testing

/// Runs the built `sheetsync` binary the way a user (or cron) would.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `sheetsync` executable built beside the test bundle.
    static func binary() throws -> URL {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
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

    @discardableResult
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env["SHEETSYNC_CONFIG"] = nil
        env["HOME"] = folder.path
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
