import Foundation
import SheetSyncCore
import SheetValues
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
        // Read through one reference to the rows (a `Table.rows` access per cell retains and releases
        // them each time); the rows are copied only if a cell changes.
        var rows = table.rows
        var changed = false
        for row in rows.indices {
            for column in numbers where column < rows[row].count {
                if case .dateSerial(let serial) = rows[row][column] {
                    rows[row][column] = .number(DateSerial.stored(serial, uses1904: uses1904))
                    changed = true
                }
            }
            for column in texts where column < rows[row].count {
                if case .dateSerial(let serial) = rows[row][column] {
                    rows[row][column] = .text(FieldParser.displayedDate(serial) ?? serial)
                    changed = true
                }
            }
        }
        guard changed else { return table }
        var settled = table
        settled.rows = rows
        return settled
    }
}
