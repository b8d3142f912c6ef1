import Foundation
import GRDB
import ZIPFoundation

/// A fixture workbook of `Fixtures/xlsx/` (made by `scripts/xlsx/make_fidelity_fixtures.py`)
/// copied into a scratch folder as the configured XLSX remote, with ways to look inside it.
struct XLSXFixture {
    let folder: URL
    let book: URL

    static let source = CLI.repoRoot.appendingPathComponent("Tests/SheetSyncTests/Fixtures/xlsx")

    static func url(_ name: String) -> URL { source.appendingPathComponent(name) }

    /// `name` copied as `book.<ext>` beside a config that names it.
    init(_ name: String) throws {
        folder = try TestWorkbook.scratch("xlsx")
        let ext = (name as NSString).pathExtension
        book = folder.appendingPathComponent("book.\(ext)")
        try FileManager.default.copyItem(at: Self.url(name), to: book)
        try Data(#"{"store": "x.sqlite", "remote": {"type": "xlsx", "path": "book.\#(ext)"}}"#.utf8)
            .write(to: folder.appendingPathComponent("sheetsync.json"))
    }

    func run(_ arguments: [String]) async throws -> CLI.Result { try await CLI.run(arguments, in: folder) }

    /// Every part of the workbook, inflated, by name.
    func parts() throws -> [String: Data] { try Self.parts(of: book) }

    static func parts(of url: URL) throws -> [String: Data] {
        let archive = try Archive(url: url, accessMode: .read)
        var parts: [String: Data] = [:]
        for entry in archive where entry.type == .file {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            parts[entry.path] = data
        }
        return parts
    }

    func part(_ name: String) throws -> String {
        String(decoding: try parts()[name] ?? Data(), as: UTF8.self)
    }

    /// Rows of a store table, column → text, ordered by `order`.
    func store(_ sql: String) throws -> [[String: String]] {
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("x.sqlite").path)
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                Dictionary(
                    uniqueKeysWithValues: row.columnNames.map { name in
                        let value: DatabaseValue = row[name]
                        return (name, String.fromDatabaseValue(value) ?? value.description)
                    })
            }
        }
    }

    func execute(_ sql: String) throws {
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("x.sqlite").path)
        try queue.write { try $0.execute(sql: sql) }
    }

    /// The `<c>` element of `cell` (`F12`) in `xml`, or nil.
    static func cellElement(_ cell: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<c r=\"\(cell)\"") else { return nil }
        let rest = xml[start.lowerBound...]
        guard let close = rest.firstIndex(of: ">") else { return nil }
        if rest[..<close].hasSuffix("/") { return String(rest[...close]) }
        guard let end = rest.range(of: "</c>") else { return nil }
        return String(rest[..<end.upperBound])
    }
}
