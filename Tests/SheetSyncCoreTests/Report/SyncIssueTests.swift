import Foundation
import SheetSyncCore
import SheetValues
import Testing

/// The one issue type: its terminal line, its JSON object, and the list of codes in docs/issues.md.
@Suite struct SyncIssueTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/issues.md")

    @Test func theTerminalLineSaysWhereThenWhatThenTheHint() {
        let cases: [(IssuePlace, String)] = [
            (IssuePlace(), "what"),
            (.tab(.transactions), "Transactions: what"),
            (.row(7, of: .transactions), "Transactions row 7: what"),
            (IssuePlace(tab: .transactions, row: 7, key: "k"), "Transactions row 7: what"),
            (.key("k", of: .categories), "Categories k: what"),
            (.store("k", of: .transactions), "store table transactions row 'k': what"),
            (.file("book.xlsx"), "book.xlsx: what"),
            (IssuePlace(file: "book.xlsx", tab: .receipts), "book.xlsx: Receipts: what"),
            (IssuePlace(file: "Transactions.csv", row: 2, column: "note"), "Transactions.csv row 2, note: what"),
            (IssuePlace(file: "bank.csv", line: 7), "bank.csv line 7: what"),
        ]
        for (place, line) in cases {
            #expect(SyncIssue.notice(.note, at: place, "what").text == line)
        }
        #expect(SyncIssue.heldBack(.massDelete, at: .tab(.transactions), "what", hint: "how").text == "Transactions: what (how)")
    }

    @Test func theJSONObjectCarriesTheCodeAndOnlyTheKnownPlace() throws {
        let issue = SyncIssue.heldBack(.olderCopy, at: IssuePlace(tab: .transactions, row: 3, key: "k"), "what", hint: "how")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(issue), as: UTF8.self)
        #expect(
            json == #"{"code":"older-copy","hint":"how","key":"k","message":"what","row":3,"severity":"held-back","#
                + #""tab":"Transactions","text":"Transactions row 3: what (how)"}"#)
        #expect(try JSONDecoder().decode(SyncIssue.self, from: Data(json.utf8)) == issue)
        let inStore = SyncIssue.notice(.invalidStoreRow, at: .store("k", of: .categories), "bad")
        #expect(try JSONDecoder().decode(SyncIssue.self, from: try encoder.encode(inStore)) == inStore)
    }

    /// Codes are what scripts match on: each is listed once in docs/issues.md, and the page lists no
    /// code the program does not have.
    @Test func docsIssuesListsEveryCodeOnce() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        // The failure codes (`FailureCode`, the CLI's module) have their own table after the issues'.
        let issues = page.components(separatedBy: "\n## Failures\n")[0]
        let listed = issues.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(listed.sorted() == IssueCode.allCases.map(\.rawValue).sorted())
        #expect(Set(listed).count == listed.count)
    }
}
