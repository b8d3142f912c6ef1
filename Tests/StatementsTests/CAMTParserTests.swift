import Statements
import Testing

@Suite struct CAMTParserTests {
    @Test func readsGenkgoStatementsOfEveryVersion() throws {
        for file in ["camt053.v2.minimal.xml", "camt053.v4.xml"] {
            let statement = try Fixture.read("genkgo-camt/\(file)")
            #expect(statement.format == .camt053)
            #expect(statement.entries.map(line) == ["2014-12-31 in 8.85 | NAME NAME | "], "\(file)")
        }
        let v8 = try Fixture.read("genkgo-camt/camt053.v8.xml")
        #expect(v8.entries.map(line) == ["2014-12-31 in 8.85 | NAME NAME | "])
        #expect(v8.entries.map(\.reference) == ["AAAASESS-FP-CN_98765/01"])
        #expect(v8.entries.map(\.account) == ["NL26VAYB8060476890"])
    }

    @Test func readsEveryStatementOfAMessage() throws {
        let statement = try Fixture.read("genkgo-camt/camt053.v2.multi.statement.xml")
        #expect(
            statement.entries.map(line) == [
                "2014-12-31 in 8.85 | Company Name 1 | Transaction Description 1",
                "2014-12-31 out 7.00 | Company Name 2 | Transaction Description 2",
            ])
    }

    @Test func readsBookedEntriesWithTheirReferencesAndCountsPendingOnes() throws {
        let statement = try Fixture.read("own/girokonto.camt053.xml")
        #expect(
            statement.entries.map(line) == [
                "2026-11-02 out 23.45 | REWE Markt GmbH | REWE SAGT DANKE Köln Süd",
                "2026-11-15 in 2750.00 | Arbeitgeber AG | Gehalt November",
                "2026-11-30 out 1050.00 |  | Dauerauftrag Miete Straße 5 €",
            ])
        #expect(statement.entries.map(\.reference) == ["2026110200001", "N-2", "2026113000007"])
        #expect(statement.pending == 1)
        #expect(statement.entries.map(\.line) == [8, 21, 38])
    }

    @Test func refusesXMLThatIsNoStatement() {
        #expect(throws: StatementError.self) { try StatementReader.read(Array("<Document><Other/></Document>".utf8), file: "x.xml") }
        let broken = "<Document><BkToCstmrStmt>\n<Stmt>"
        #expect(throws: StatementError(file: "x.xml", line: 2, problem: .malformed("not well-formed XML"))) {
            try StatementReader.read(Array(broken.utf8), file: "x.xml")
        }
    }
}
