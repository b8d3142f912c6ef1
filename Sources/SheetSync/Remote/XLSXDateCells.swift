import Foundation
import SheetSyncCore
import Workbook

/// Date-formatted numbers, read as dates only where the column holds dates.
///
/// A workbook marks a number as a date by its number format alone, whatever column it sits in.
/// In an amount (or any number) column it stays the number that is stored, in the workbook's
/// own date system; in a text column (note, tags) it is the date the cell shows, in ISO form.
/// Date and timestamp columns keep the serial, which the schema reads as a date.
enum XLSXDateCells {
    static func settle(_ table: Table, schema: TabSchema, uses1904: Bool) -> Table {
        var numbers: [Int] = []
        var texts: [Int] = []
        for (index, header) in table.header.enumerated() {
            let name = header.trimmingCharacters(in: .whitespaces).lowercased()
            guard let field = schema.fields.first(where: { $0.header.lowercased() == name }) else { continue }
            switch field.kind {
            case .amount, .integer: numbers.append(index)
            case .freeText, .text: texts.append(index)
            default: break
            }
        }
        guard !numbers.isEmpty || !texts.isEmpty else { return table }
        var table = table
        for row in table.rows.indices {
            for column in numbers where column < table.rows[row].count {
                if case .dateSerial(let serial) = table.rows[row][column] {
                    table.rows[row][column] = .number(DateSerial.stored(serial, uses1904: uses1904))
                }
            }
            for column in texts where column < table.rows[row].count {
                if case .dateSerial(let serial) = table.rows[row][column] {
                    table.rows[row][column] = .text(FieldParser.displayedDate(serial) ?? serial)
                }
            }
        }
        return table
    }
}
