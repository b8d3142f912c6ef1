import SheetSyncCore
import SheetValues
import Testing

/// A rejected row carries the code of what holds it back (docs/issues.md): scripts and tests match
/// on it, not on the message.
@Suite struct RejectionCodeTests {
    typealias P = SyncPlannerTests

    /// One row typed wrong in each way, in a sheet whose other rows are fine.
    @Test func eachKindOfBadRowHasItsCode() throws {
        var (workbook, ledger) = P.agreed(1)
        let good = RC.transaction(P.ids[0])
        let cases: [(field: FieldKey, value: String, code: IssueCode)] = [
            (.date, "2026-11-31", .invalidDate),
            (.date, "someday", .invalidDate),
            (.amount, "twelve", .invalidAmount),
            (.amount, "-5.00", .invalidAmount),
            (.category, "Nonexistent", .unknownCategory),
            (.type, "refund", .invalidChoice),
            (.transactionId, "not-a-uuid", .invalidId),
            (.createdAt, "yesterday", .invalidTimestamp),
            (.category, "", .missingValue),
        ]
        var rows = [good]
        for (i, c) in cases.enumerated() {
            var row = RC.transaction(P.ids[i + 1])
            row[c.field] = c.value
            rows.append(row)
        }
        workbook[.transactions] = P.table(.transactions, rows)
        ledger.base[.transactions] = [:]
        let plan = try #require(P.tab(P.plan(workbook, ledger), .transactions))
        let byRow = Dictionary(uniqueKeysWithValues: plan.rejections.map { ($0.row, $0.code) })
        for (i, c) in cases.enumerated() {
            // Row 2 is the good one; the header is row 1.
            #expect(
                byRow[i + 3] == c.code, "\(c.field) '\(c.value)': \(plan.rejections.first { $0.row == i + 3 }?.message ?? "not rejected")")
        }
        #expect(plan.rejections.count == cases.count)
    }

    @Test func aDamagedRowIsDamagedWhateverElseIsWrongWithIt() {
        let problems = [
            FieldProblem(field: "date", value: "x", message: "m", code: .invalidDate),
            FieldProblem(field: "", value: "", message: "cut short", code: .damagedRow),
        ]
        #expect(Rejection.code(of: problems) == .damagedRow)
        #expect(Rejection.code(of: Array(problems.prefix(1))) == .invalidDate)
        #expect(Rejection.code(of: []) == .rejectedRow)
    }
}
