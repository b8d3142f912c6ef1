import SheetSyncCore
import SheetValues
import Testing

@testable import SheetSync

/// Amounts and dates typed as text are written back as number or date cells; a value that is written
/// as text on purpose (an amount of more than 15 digits, which a number cell would round; a date before
/// 1900, which no date serial holds) stays text, and no notice claims otherwise.
@Suite struct XLSXRetypingTests {
    static let header = Tab.transactions.schema.fields.map(\.header)

    static func row(amount: Cell, date: Cell) -> [Cell] {
        header.map { name -> Cell in
            switch name.lowercased() {
            case "transactionid": return .text("c09ca393-0084-5db0-a1be-912f4bec2b3d")
            case "type": return .text("expense")
            case "amount": return amount
            case "date": return date
            case "category": return .text("Groceries")
            default: return .empty
            }
        }
    }

    @Test func textThatStaysTextWhenTypedIsNotRetyped() {
        // What a re-save (openpyxl keeps text cells text) gives back of sheetsync's own text cells.
        let table = Table(
            header: Self.header,
            rows: [
                Self.row(amount: .text("12345678901234567.89"), date: .dateSerial("46024")),
                Self.row(amount: .number("54.2"), date: .text("1899-12-30")),
            ])
        #expect(!XLSXRetyping.hasRetypable(table, schema: Tab.transactions.schema))
        let changes = XLSXRetyping.changes(table, plan: TabPlan(tab: .transactions), adding: TableChanges())
        #expect(changes.cells.isEmpty, "\(changes.cells)")
    }

    @Test func anAmountTypedAsTextIsStillRetyped() {
        let table = Table(header: Self.header, rows: [Self.row(amount: .text("$1,000.00"), date: .dateSerial("46024"))])
        #expect(XLSXRetyping.hasRetypable(table, schema: Tab.transactions.schema))
        let changes = XLSXRetyping.changes(table, plan: TabPlan(tab: .transactions), adding: TableChanges())
        #expect(changes.cells.map(\.cell) == [.number("1000.00")])
    }
}
