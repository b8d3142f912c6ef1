import Foundation
import Statements
import Testing

/// A statement file of `Fixtures/`, read as the importer reads it.
enum Fixture {
    static func bytes(_ path: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/\(path)"))
        return Array(try Data(contentsOf: url))
    }

    static func read(_ path: String, options: StatementOptions = StatementOptions()) throws -> Statement {
        try StatementReader.read(bytes(path), file: (path as NSString).lastPathComponent, options: options)
    }
}

/// One entry as a test states it: `2026-11-03 out 4.75 | payee | memo`.
func line(_ entry: StatementEntry) -> String {
    "\(entry.date) \(entry.direction.rawValue) \(entry.amount) | \(entry.payee) | \(entry.memo)"
}
