import Foundation
import SheetSync
import SheetSyncCore
import SheetValues
import TestSupport
import Workbook

/// A CSV workbook folder in a scratch directory, edited the way a person would.
struct TestWorkbook {
    let folder: URL

    /// A new scratch folder (`ScratchFolders`: on tmpfs when there is one, removed at exit).
    static func scratch(_ name: String = "case") throws -> URL { try ScratchFolders.make(name) }

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
