import Foundation
import SheetSyncCore
import Statements
import Testing

@testable import SheetSync

/// The ids `import` gives a statement's entries, pinned for every format: two machines importing one
/// statement make the same rows, and a store filled by an earlier build sees a re-import as nothing
/// new, only while the same bytes give the same ids (docs/bank-statements.md).
@Suite struct StatementEntryIDTests {
    /// Each fixture's ids in the file's order, as the first builds that imported statements gave them.
    static let pinned: [String: [String]] = [
        "own/us-checking.csv": [
            "1d8bbec5-c37f-528b-b401-7914457c8cee",
            "92a8eeb3-ede8-57fa-a4c0-6c2d1fde1772",
            "52f054f1-fb30-598d-a1fc-4f2017dcdc71",
            "2be09e23-e244-5194-8c3b-561d45ef5dc0",
            "188dd932-bf6e-5bd0-b218-2a3e1c0d229f",
        ],
        "own/uk-current-account.csv": [
            "86b66b95-d98b-5cc7-b3f5-52ce3d85130b",
            "4edc390b-d933-572c-b1e6-63220d87ad60",
            "acb52070-7256-5f6b-865e-6ffe51ad9c6f",
            "e84f811c-1e42-5c7a-8246-0269122fe1cf",
        ],
        "own/de-girokonto.csv": [
            "a01b1535-d6cf-5d38-8b3d-4cbb16c2aabe",
            "b7b257d3-9c30-5486-85c5-5c360d9fa0f2",
            "ee0b3836-61c5-5e62-a318-c516c02291db",
            "9eff8154-ab2e-5ebd-8efb-183afdf980ae",
        ],
        "own/credit-card.csv": [
            "eaaca91a-5499-5182-a24a-c20d0df7678c",
            "d30066e0-b1b2-508b-8282-3be56863fb34",
            "52ccb178-42d7-5e2f-922a-5e9a71c85ac4",
            "c552bf1d-7d37-5292-841b-103419f845fe",
        ],
        "own/utf16-export.txt": [
            "2fe9a690-b902-5b58-9b60-01eb09bd0a78",
            "96317a48-3763-598e-8dfe-e4a63dba8bd4",
            "b382a710-06cd-55d9-8a74-d5ca6abeee37",
        ],
        "own/checking-sgml.ofx": [
            "e92ee469-dd7f-5501-a0db-996b35633d44",
            "3262966e-fe36-5fbf-b662-ebb833f4771d",
            "7834101a-b896-52bb-bed7-db12d048c64a",
        ],
        "own/card-xml.qfx": [
            "421246f4-2441-563e-a91b-408b09b4d893",
            "169750d2-8507-5d41-bf7c-4edaf033b7fe",
        ],
        "ofxparse/checking.ofx": [
            "4e2d63e0-59eb-5696-a49f-866ab62035b2",
            "683bf22d-ac10-59c7-9ebd-a8fb131ffba0",
            "22efe33b-6896-5b5c-8bc9-d03e61353a0f",
        ],
        "ofxparse/suncorp.ofx": [
            "91580d01-5ff8-5ef3-8645-8230de1784db"
        ],
        "own/checking.qif": [
            "d09b3b28-4efe-574d-bacf-881ea9f2d31e",
            "02a37439-63ff-5f0e-a69e-e95af734deb3",
            "712d490f-34e0-536b-a471-d717ae46e7ec",
        ],
        "nerdbank-qif/sample.qif": [
            "bcc871e7-6859-5542-98b2-1100f7dc1981",
            "86b2fb6c-7a65-509f-97b0-889a308522c9",
            "90fb4a8f-0630-5ff7-8cf2-d8d61ecbcff3",
            "8cccb1ec-5083-5022-81c4-dd9fd4255e04",
            "6869feec-28b5-56ea-bdf9-838b244e93b7",
            "8801b775-41d1-526c-9e92-885db808eea9",
            "d691e749-ec6e-5ca9-8e62-79070045acb8",
            "67e832b8-9a85-57a5-978f-5e8bc7055054",
            "9833fcdb-f1fb-559b-bb99-b5b4fe4e3f8d",
            "90bdcb34-7ebb-55fc-b237-cfb7bdeb5c56",
            "1739e9af-d987-5dae-96a1-c66c341ec8c9",
            "c4067f17-912c-572d-8d06-ef68c9d678ee",
            "92419323-c82c-5576-9c1f-1c9f471fdcf6",
            "533d5948-fa94-5aef-981c-5e4ac17e340a",
            "cf26900c-0557-564e-a23f-c715957f978b",
            "a3286042-b1d9-5338-a25e-8a83ec235a39",
            "8a2d7085-590b-59e4-87ec-1d6605be0469",
            "a57794b5-e993-57df-9cba-e85c4e725472",
            "fabc16e1-9c59-5190-87c7-c7f94d604cb2",
            "7fc1c0c2-bf38-5539-b42e-e437b406b10b",
            "db62bf03-f1d5-5f51-a2fd-5c63f7373799",
            "91d6f650-2929-5081-baf7-268040744f99",
            "3dc2bfa5-a698-5903-9ef1-c13f50963ae4",
            "bb971ba2-4a04-58e8-8a37-656ec8437610",
            "111c60bf-a743-5d67-ac37-9045dfac6d84",
            "a554b438-081c-5ca4-9d5f-05d1ee2a5fd3",
            "8b9ffcfd-d744-56ef-ac7a-3dd1ba7cd059",
            "0e5e89fa-cf88-5b2c-8fa9-60857dbc327e",
            "e304fb02-962e-5578-8d11-0d0490f3b538",
        ],
        "own/girokonto.camt053.xml": [
            "9862b538-af23-5369-b454-cf1d3e2120e0",
            "cf95f051-c683-56a8-ba71-289624906fbe",
            "3533e547-b34f-5550-bd44-ba0ea104a0af",
        ],
        "genkgo-camt/camt053.v2.multi.statement.xml": [
            "946b760d-abac-5cd7-8d44-c89ae07b1a5d",
            "eacdc627-814c-56fc-979f-c811043d7ad8",
        ],
    ]

    static func fixture(_ path: String) -> URL {
        CLI.repoRoot.appendingPathComponent("Tests/StatementsTests/Fixtures").appendingPathComponent(path)
    }

    @Test(arguments: pinned.keys.sorted())
    func eachFormatGivesTheIdsItAlwaysGave(file: String) async throws {
        let ledger = try await StatementImportTests.ledger()
        let report = try await StatementImportTests.workspace(ledger).importStatement(at: Self.fixture(file), options: .init(dryRun: true))
        #expect(report.refused.isEmpty, "\(report.refused)")
        #expect(report.rows.map(\.transactionId) == Self.pinned[file], "\(report.rows.map(\.transactionId))")
    }

    /// Without a reference the id hangs on the import profile's name (a bank's account): the same
    /// export read under a profile gets other ids, always the same ones.
    @Test func aProfileGivesItsOwnIdsAlwaysTheSame() async throws {
        let ledger = try await StatementImportTests.ledger(config: #""import": {"profiles": {"giro": {"fileName": "de-*.csv"}}}"#)
        let report = try await StatementImportTests.workspace(ledger).importStatement(
            at: Self.fixture("own/de-girokonto.csv"), options: .init(dryRun: true))
        #expect(report.profile == "giro")
        #expect(report.rows.map(\.transactionId) == Self.profiled, "\(report.rows.map(\.transactionId))")
    }

    static let profiled = [
        "5c5a6038-2c88-5415-9840-f90821bee9fc",
        "d33b9be7-edba-5648-8d5f-a5b05d0508c5",
        "a130e920-ff4c-5231-929d-f0f57918790f",
        "66286ccc-b7c6-5946-96d5-ffff0e90c0db",
    ]

    /// A note's text is collapsed and folded by the rule (split at whitespace, joined by one space),
    /// whichever way `StatementNote` finds that a text is collapsed already.
    @Test func notesCollapseByTheRuleForEveryShapeOfText() throws {
        let units = [
            "a", "Ü", "€", "–", " ", "  ", "\t", "\n", "\r\n", "\u{A0}", "\u{85}", "\u{2003}", "\u{3000}", "\u{301}", " \u{301}",
            "\u{200D}",
        ]
        var texts = ["", " ", "a", "a b", " a", "a ", "a  b", "Brötchen & Kaffee für 3,50 €"]
        // Every text of up to three units, and longer ones drawn the same way every run.
        var state: UInt64 = 20_261_128
        func draw(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        for a in units { for b in units { for c in units { texts.append(a + b + c) } } }
        for _ in 0..<3000 { texts.append((0..<draw(9)).map { _ in units[draw(units.count)] }.joined()) }
        let date = try #require(LocalDate(iso: "2026-11-02"))
        let amount = try Amount.parse("1.00").get()
        for text in texts {
            let rule = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
            #expect(StatementNote.folded(text) == rule.lowercased(), "\(text.debugDescription)")
            #expect(!StatementNote.isCollapsed(text) || rule == text, "\(text.debugDescription)")
            let entry = StatementEntry(date: date, amount: amount, direction: .outgoing, payee: text, memo: "", line: 1)
            #expect(StatementNote.text(entry) == rule, "\(text.debugDescription)")
        }
    }
}
