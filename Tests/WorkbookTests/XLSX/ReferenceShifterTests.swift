import Testing

@testable import Workbook

/// References move with rows the way Excel moves them when rows are deleted.
@Suite struct ReferenceShifterTests {
    /// Rows 3 and 5 deleted from a table whose last row was 10, with 2 rows appended.
    let shifter = ReferenceShifter(sheet: "Transactions", shift: RowShift(deleted: [3, 5], lastDataRow: 10, appended: 2))

    @Test func rowsBelowADeletedRowMoveUpAndDeletedRowsVanish() {
        let shift = shifter.shift
        #expect(shift.row(2) == 2)
        #expect(shift.row(3) == nil)
        #expect(shift.row(4) == 3)
        #expect(shift.row(10) == 8)
        #expect(shift.appendedRow(0) == 9)
    }

    @Test func formulasFollowTheirReferences() {
        #expect(shifter.formula("F4*2", inSheet: true) == "F3*2")
        #expect(shifter.formula("F3*2", inSheet: true) == "#REF!*2")
        #expect(shifter.formula("SUM($F$2:$F$10)", inSheet: true) == "SUM($F$2:$F$8)")
        #expect(shifter.formula("SUM(Transactions!F:F)+Other!F10", inSheet: false) == "SUM(Transactions!F:F)+Other!F10")
        #expect(shifter.formula("'Transactions'!B6&\"F6 stays\"", inSheet: false) == "'Transactions'!B4&\"F6 stays\"")
        #expect(shifter.formula("LOG10(F4)", inSheet: true) == "LOG10(F3)")
        #expect(shifter.formula("F4", inSheet: false) == "F4", "an unqualified reference outside the sheet is another sheet's")
    }

    @Test func rangeListsShrinkAndGrowWithTheTable() {
        #expect(shifter.rangeList("B2:B10", grows: true) == "B2:B10")
        #expect(shifter.rangeList("B2:B10", grows: false) == "B2:B8")
        #expect(shifter.rangeList("A3", grows: false) == nil)
        #expect(shifter.rangeList("A3 C4:D5", grows: false) == "C3:D3")
        #expect(shifter.rangeList("A1:O10", grows: true) == "A1:O10")
    }

    @Test func aFillDownMovesRelativeRowsOnly() {
        #expect(ReferenceShifter.translate("F2*2+$G$2+H$2+$I2", rows: 3) == "F5*2+$G$2+H$2+$I5")
        #expect(ReferenceShifter.translate("\"A1\"&A1", rows: 1) == "\"A1\"&A2")
    }
}
