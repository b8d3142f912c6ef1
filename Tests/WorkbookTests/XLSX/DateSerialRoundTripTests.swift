import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// A stored date serial read as a date and written back is the same stored number, in both date
/// systems, around Excel's fictitious 1900-02-29 (serial 60).
@Suite struct DateSerialRoundTripTests {
    @Test(arguments: [
        (1, false, "1900-01-01"), (59, false, "1900-02-28"), (61, false, "1900-03-01"), (62, false, "1900-03-02"),
        (0, true, "1904-01-01"), (1, true, "1904-01-02"),
    ])
    func aStoredSerialReadsAsItsDateAndWritesBackUnchanged(_ stored: Int, _ uses1904: Bool, _ iso: String) throws {
        let serial = DateSerial.normalized(String(stored), uses1904: uses1904)
        #expect(FieldParser.date(.dateSerial(serial))?.description == iso)
        let written = try #require(FieldParser.cell(iso, FieldSpec(.date, .date), typed: true).serialText)
        #expect(DateSerial.stored(written, uses1904: uses1904) == String(stored))
    }

    @Test func serialSixtyIsTheDayBeforeMarchFirst() {
        // Excel shows serial 60 as 1900-02-29, a day that never was; it reads as 1900-02-28.
        #expect(FieldParser.date(.dateSerial(DateSerial.normalized("60", uses1904: false)))?.description == "1900-02-28")
    }
}

extension Cell {
    fileprivate var serialText: String? {
        if case .dateSerial(let text) = self { return text }
        return nil
    }
}
