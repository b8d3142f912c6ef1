import Foundation
import SheetSyncCore
import Testing

/// docs/tabs.md is generated from the tab schemas (`sheetsync help tabs` prints the same text): a
/// column added without a line of documentation, or the file left out of step, fails here.
@Suite struct ColumnReferenceTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/tabs.md")

    @Test func everyColumnOfEveryTabIsDocumented() {
        #expect(ColumnReference.undocumented == [])
        for tab in Tab.allCases {
            for field in tab.schema.fields {
                #expect(ColumnReference.markdown.contains("| `\(field.header)` |"), "\(tab.rawValue).\(field.header)")
            }
        }
    }

    @Test func docsTabsIsTheGeneratedPage() throws {
        let file = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(file == ColumnReference.markdown + "\n", "run scripts/generate-manual.sh to rewrite docs/tabs.md")
    }

    @Test func choicesAndRequiredColumnsAreSpelledOut() {
        let page = ColumnReference.markdown
        for line in [
            "| `paidFlag` | no | `paid`, `unpaid` (any case) |", "| `cadence` | yes | `daily`, `weekly`, `monthly`, `yearly` (any case) |",
            "| `isEnabled` | yes | `TRUE` or `FALSE`", "| `transactionId` | filled in | a UUID |", "| `date` | yes | a date (see below) |",
        ] {
            #expect(page.contains(line), "\(line)")
        }
    }
}
