import Foundation
import GRDB
import SheetSyncCore
import SheetValues
import TestSupport
import Testing

@testable import SheetSyncStore

/// Every copy of a field rule agrees with the rule table (`FieldKind.rule`): the tolerant parser,
/// the byte-level readers (`canonicalFast`, `readsFast`, `appendCanonical`), the Swift decision of
/// the store's CHECKs (`passesChecks`) and SQLite's own CHECK, for each kind the tabs hold, on the
/// table's examples and on texts made from them.
@Suite struct FieldRuleAgreementTests {
    /// One field of each kind the tabs hold (not a key, which binds by a rule of its own), with its tab.
    static let fields: [(tab: Tab, field: FieldSpec)] = {
        var seen: Set<FieldKind> = []
        return Tab.allCases.flatMap { tab in
            tab.schema.fields.filter { $0.key != tab.schema.keyField && seen.insert($0.kind).inserted }.map { (tab, $0) }
        }
    }()

    /// A table with one column of `field`, under the CHECKs the store gives it, that takes texts
    /// as the store binds them.
    struct StoreColumn {
        let queue: DatabaseQueue
        let table: DataTable
        let column: DataTable.PlannedColumn

        init(_ tab: Tab, _ field: FieldSpec) throws {
            queue = try DatabaseQueue()
            table = DataTable(tab)
            column = try #require(DataTable.ColumnPlan.byTab[tab].all.first { $0.slot.name == field.name })
            let checks = DataTable.checks(for: field, key: false).map { "CHECK (\($0.sql))" }
            let type = field.isIntegerColumn ? "INTEGER" : "TEXT"
            try queue.write { db in
                try db.execute(
                    sql: "CREATE TABLE t (\(([field.name.quotedDatabaseIdentifier + " " + type] + checks).joined(separator: ", ")))")
            }
        }

        /// What the store does with `text`: bound as `columnValue` binds it (nil when it refuses
        /// to), whether SQLite's CHECKs let it through.
        func takes(_ text: String) -> Bool? {
            guard let value = try? table.columnValue(text, column, key: "k").databaseValue else { return nil }
            return queue.inDatabase { db in (try? db.cachedStatement(sql: "INSERT INTO t VALUES (?)").execute(arguments: [value])) != nil }
        }
    }

    /// Where the copies of `field`'s rule part on the text `text` read under `forms`.
    static func disagreements(_ text: String, _ field: FieldSpec, _ store: StoreColumn, _ forms: LocalForms = .standard) -> [String] {
        var found: [String] = []
        let name = "\(field.name) (\(field.kind))"
        let tolerant = FieldParser.canonicalTolerantly(.text(text), field, forms)
        let fast = FieldParser.canonicalFast(.text(text), field.kind, forms)
        if let fast, tolerant != .success(fast) { found.append("\(name): '\(text)' reads fast as '\(fast)', tolerantly as \(tolerant)") }
        let bytes = Array(text.utf8)
        if !bytes.isEmpty, let rule = FieldParser.FastRule(field.kind, forms),
            bytes.withUnsafeBufferPointer({ FieldParser.readsFast($0, rule) })
        {
            var out: [UInt8] = []
            let appended = bytes.withUnsafeBufferPointer { FieldParser.appendCanonical($0, field.kind, forms, to: &out) }
            if !appended || fast != String(decoding: out, as: UTF8.self) {
                found.append(
                    "\(name): '\(text)' reads fast on its bytes as '\(String(decoding: out, as: UTF8.self))', as text as \(fast ?? "nil")")
            }
        }
        if case .success(let canonical) = tolerant, !canonical.isEmpty {
            // Canonical text reads as itself (as the store and the engine read it: by the standard forms).
            let again = FieldParser.canonicalTolerantly(.text(canonical), field)
            if again != .success(canonical) { found.append("\(name): canonical '\(canonical)' of '\(text)' reads as \(again)") }
            if store.takes(canonical) != true { found.append("\(name): the store refuses canonical '\(canonical)' of '\(text)'") }
        }
        let taken = store.takes(text)
        // What the store holds is read as canonical text, which no ledger's forms read otherwise.
        if forms == .standard, taken == true, case .failure = tolerant {
            found.append("\(name): the store takes '\(text)', which a sync refuses")
        }
        if taken == false, text.withBytes({ DataTable.passesChecks($0, field) }) {
            found.append("\(name): '\(text)' passes the CHECKs in Swift, SQLite's CHECK refuses it")
        }
        return found
    }

    @Test func everyKindReadsAndRefusesItsExamples() throws {
        var examples = 0
        for (tab, field) in Self.fields {
            let store = try StoreColumn(tab, field)
            let rule = field.kind.rule
            for (typed, canonical) in rule.reads {
                examples += 1
                #expect(FieldParser.canonical(.text(typed), field) == .success(canonical), "\(field.name): '\(typed)'")
                #expect(Self.disagreements(typed, field, store) == [])
            }
            for text in rule.refuses {
                examples += 1
                guard case .failure(let problem) = FieldParser.canonical(.text(text), field) else {
                    Issue.record("\(field.name): '\(text)' reads, the rule table says it is refused")
                    continue
                }
                #expect(problem.value == text && problem.field == field.header)
                #expect(store.takes(text) != true, "\(field.name): the store takes '\(text)'")
                #expect(Self.disagreements(text, field, store) == [])
            }
        }
        #expect(examples > 80)
    }

    @Test func theReadersAndTheStoreAgreeOnTextsMadeFromTheExamples() throws {
        let alphabet = Array("0123456789-/.:,+TZ $€abcdefABCDEF{}yesnotrux\t\u{A0}")
        let everyForm = LocalForms.DateOrder.allCases.flatMap { order in
            LocalForms.DecimalSeparator.allCases.map { LocalForms(dateOrder: order, decimalSeparator: $0) }
        }
        var random = SeededRandom(seed: 32)
        var found: [String] = []
        for (tab, field) in Self.fields {
            let store = try StoreColumn(tab, field)
            let rule = field.kind.rule
            let seeds = rule.reads.flatMap { [$0.typed, $0.canonical] } + rule.refuses
            for round in 0..<300 {
                let text = random.mutated(seeds[random.next(below: seeds.count)], alphabet: alphabet)
                found += Self.disagreements(text, field, store, everyForm[round % everyForm.count])
            }
            if found.count > 10 { break }
        }
        #expect(found == [])
    }
}

extension String {
    /// `body` of the text's UTF-8 bytes.
    fileprivate func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = self
        return copy.withUTF8(body)
    }
}
