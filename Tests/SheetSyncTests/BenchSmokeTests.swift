import Foundation
import TestSupport
import Testing

/// Keeps `bench/run.sh` working: a CI-sized run of the whole benchmark
/// (2,000 rows, one timed run per command, the reference tools that are installed) against the
/// `sheetsync` built beside the tests, and every row of BENCHMARKS.md's table in its `results.json`.
/// Times are not asserted: the machine decides them, not the code.
@Suite struct BenchSmokeTests {
    /// What the script needs besides sheetsync: hyperfine times, GNU time measures peak RSS, python3
    /// generates the ledger and makes the one-row edits.
    static var hasTools: Bool {
        ExternalTools.executable("hyperfine") != nil && ExternalTools.python != nil
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/time") && ExternalTools.executable("bash") != nil
    }

    /// The rows of BENCHMARKS.md's table, by their id in results.json.
    static let tableRows = [
        "check-csv/csv-reader", "check-csv/polars", "check-xlsx/calamine", "pull/sqlite3-import",
        "hand-edit-sync/check-csv", "store-edit-sync/check-csv", "rss:pull", "rss:hand-edit-sync",
        "rss:store-edit-sync", "200k:hand-edit-sync/base", "rss:200k:hand-edit-sync", "200k:store-edit-sync/base",
        "rss:200k:store-edit-sync", "1m:first-sync", "rss:1m:first-sync", "1m:store-edit-sync", "rss:1m:store-edit-sync",
        "deleted-noop-sync", "status", "export-xlsx/xlsxwriter", "noop-sync/check-csv",
    ]

    /// The sheetsync commands the smoke run must have timed, whatever reference tools are missing.
    static let sheetsyncCommands = [
        "check-csv", "pull", "hand-edit-sync", "store-edit-sync", "noop-sync", "deleted-noop-sync", "status",
        "check-xlsx", "export-xlsx",
    ]

    struct Results: Decodable {
        struct Row: Decodable {
            var id: String
            var status: String
            var wall: Double?
            var bar: Double?
        }
        struct Median: Decodable {
            var wall: Double
            var cpu: Double
        }
        var rows: Int
        var table: [Row]
        var medians: [String: Median?]
        var rssMiB: [String: Double?]

        enum CodingKeys: String, CodingKey {
            case rows, table, medians
            case rssMiB = "rss_mib"
        }
    }

    @Test(.enabled(if: hasTools, "needs hyperfine, python3, bash and GNU time (/usr/bin/time); skipped"))
    func smokeRunProducesEveryRow() async throws {
        let out = try TestWorkbook.scratch("bench-smoke")
        defer { try? FileManager.default.removeItem(at: out) }
        let bash = try #require(ExternalTools.executable("bash"))
        let process = Process()
        process.executableURL = bash
        process.arguments = [CLI.repoRoot.appendingPathComponent("bench/run.sh").path]
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in [
            "SMOKE": "1", "ROWS": "2000", "RUNS": "1", "OUT": out.path, "BIN": try CLI.binary().path,
        ] {
            environment[key] = value
        }
        // A developer's own bench settings must not turn the smoke run into a big one.
        for key in ["BIG", "SIZES", "BIG_ONLY", "SKIP_XLSX", "OPENPYXL", "SLOW_RUNS", "WARMUP"] { environment[key] = nil }
        process.environment = environment
        let log = out.appendingPathComponent("run.log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        // Waits without blocking a cooperative thread for the run's half minute.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try logHandle.close()
        let output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        try #require(process.terminationStatus == 0, "bench/run.sh failed:\n\(output.suffix(3000))")

        let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: out.appendingPathComponent("results.json")))
        #expect(results.rows == 2000)
        #expect(results.table.map(\.id) == Self.tableRows)
        for command in Self.sheetsyncCommands {
            let median = results.medians[command] ?? nil
            #expect((median?.wall ?? 0) > 0, "\(command) was not timed")
            #expect(((results.rssMiB[command] ?? nil) ?? 0) > 0, "\(command) has no peak RSS")
        }
        for row in results.table {
            #expect(row.bar != nil, "\(row.id) has no bar")
            if row.id.hasPrefix("200k:") || row.id.hasPrefix("rss:200k:") || row.id.contains("1m:") {
                // The big runs are opt-in (BIG=1): listed, not run.
                #expect(row.status.hasPrefix("not run"), "\(row.id): \(row.status)")
            } else if row.status.hasPrefix("skipped: ") {
                // Only a missing reference tool may leave a row out, never a sheetsync command.
                #expect(!Self.sheetsyncCommands.contains { row.status.hasPrefix("skipped: \($0):") }, "\(row.id): \(row.status)")
            } else {
                #expect(row.status == "measured" && (row.wall ?? 0) > 0, "\(row.id): \(row.status)")
            }
        }
    }
}
