import Foundation
import SheetSync
import SheetSyncCore
import TestSupport
import Workbook

/// A CSV workbook folder in a scratch directory, edited the way a person would.
struct TestWorkbook {
    let folder: URL

    /// A new scratch folder (on tmpfs when there is one, so fsyncs are cheap).
    static func scratch(_ name: String = "case") throws -> URL {
        let url = runFolder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Where scratch folders live: tmpfs when there is one.
    private static let scratchRoot =
        FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory

    /// This test process's folder of scratch folders, removed when the process exits. A run's
    /// folder holds about 170 MB, which on tmpfs is memory: runs that ended without removing theirs
    /// (killed, crashed) are swept when the next run starts.
    private static let runFolder: URL = {
        let prefix = "sheetsync-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: scratchRoot.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: scratchRoot.appendingPathComponent(name))
        }
        atexit { try? FileManager.default.removeItem(at: TestWorkbook.scratchRoot.appendingPathComponent("sheetsync-tests-\(getpid())")) }
        return scratchRoot.appendingPathComponent("\(prefix)\(getpid())")
    }()

    func url(_ tab: Tab) -> URL { folder.appendingPathComponent("\(tab.rawValue).csv") }

    func file(_ tab: Tab) throws -> CSVFile { try CSVReader.read(contentsOf: url(tab)) }

    func table(_ tab: Tab) throws -> Table { try file(tab).table }

    func bytes(_ tab: Tab) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(tab))) }

    func allBytes() throws -> [[UInt8]] { try Tab.allCases.map { try bytes($0) } }

    /// Rewrites a tab the way a spreadsheet program saves it (plain, not atomically).
    func edit(_ tab: Tab, _ change: (inout Table) -> Void) throws {
        var f = try file(tab)
        change(&f.table)
        try Data(CSVWriter.encode(f)).write(to: url(tab))
    }

    func write(_ tab: Tab, header: [String], rows: [[String]]) throws {
        let table = Table(header: header, rows: rows.map { $0.map { $0.isEmpty ? Cell.empty : .text($0) } })
        try Data(CSVWriter.encode(CSVFile(table: table, hasBOM: false, lineEnding: .lf, endsWithNewline: true))).write(to: url(tab))
    }

    /// The tab's loadable rows by key, read as sync reads them.
    func records(_ tab: Tab, now: Timestamp) throws -> [String: LedgerRow] {
        let (_, rows) = try TabReader.read(try table(tab), schema: tab.schema, seenAt: now)
        var out: [String: LedgerRow] = [:]
        for row in rows {
            if case .record(let r, _) = row.outcome { out[r[tab.schema.keyField]] = r }
        }
        return out
    }

    func column(_ name: String, in table: Table) -> Int? {
        table.header.firstIndex { $0.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() }
    }
}

/// Ids from a seeded sequence (valid v4-shaped UUIDs).
final class SeededIDs: @unchecked Sendable {
    private var rng: SeededRandom
    private let lock = NSLock()
    init(seed: UInt64) { rng = SeededRandom(seed: seed ^ 0xA5A5_A5A5) }
    func next() -> String {
        lock.withLock {
            let a = rng.next(), b = rng.next()
            let hex = String(format: "%016llx%016llx", a, b)
            let c = Array(hex)
            return "\(String(c[0..<8]))-\(String(c[8..<12]))-4\(String(c[13..<16]))-a\(String(c[17..<20]))-\(String(c[20..<32]))"
        }
    }
}
