import SheetValues

/// The cell style indices a worksheet uses for dates, in whatever styles part the package has.
struct DateStyles: Equatable {
    /// `yyyy-mm-dd`
    var date: Int
    /// `yyyy-mm-dd hh:mm:ss`
    var dateTime: Int
}

/// Streams one worksheet part: header in row 1, `table.rows[i]` in row `i + 2`.
///
/// Text goes in as inline strings: written in one pass with no string table held in memory, and
/// read by Excel, LibreOffice, Google Sheets, openpyxl and calamine alike (Excel moves them into
/// its shared table on its next save). Empty cells and empty rows are left out; their row and
/// column numbers stay true through `r` attributes.
struct WorksheetXMLWriter {
    var sheet: XLSXSheet
    var styles: DateStyles
    var file: String
    var part: String
    /// Whether the workbook counts dates from 1904 (only an original written into can).
    var uses1904 = false
    /// The replaced sheet's own surroundings, kept around the new cells (see `SheetFrame`).
    var frame: SheetFrame? = nil

    /// Excel's limit on the text of one cell.
    static let maximumTextLength = 32_767

    func write(to sink: ByteSink) throws {
        let table = sheet.table
        let widths = ColumnWidths.measure(table)
        let letters = (0...max(widths.count, 1)).map { Array(CellReference.columnLetters($0).utf8) }
        if let frame {
            sink.append(bytes: frame.head.utf8)
        } else {
            writeHead(widths: widths, rows: table.rows.count + 1, to: sink)
        }
        sink.append("<sheetData>")
        if !table.header.isEmpty {
            try writeRow(table.header.map(Cell.text), number: 1, letters: letters, to: sink)
        }
        for (index, row) in table.rows.enumerated() {
            try writeRow(row, number: index + 2, letters: letters, to: sink)
            try sink.flushIfFull()
        }
        sink.append("</sheetData>")
        if let frame {
            sink.append(bytes: frame.tail.utf8)
        } else {
            sink.append("</worksheet>")
        }
    }

    private func writeHead(widths: [Int], rows lastRow: Int, to sink: ByteSink) {
        sink.append(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#)
        sink.append("\n")
        sink.append(#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" "#)
        sink.append(#"xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#)
        if !widths.isEmpty {
            sink.append(#"<dimension ref="A1:"#)
            sink.append(bytes: CellReference.columnLetters(widths.count).utf8)
            sink.append(decimal: lastRow)
            sink.append(#""/>"#)
        }
        // Frozen header row: the sheet stays readable however far down one scrolls.
        sink.append(#"<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" "#)
        sink.append(#"activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>"#)
        sink.append(#"<sheetFormatPr defaultRowHeight="15"/>"#)
        sink.append(bytes: ColumnWidths.element(widths).utf8)
    }

    private func writeRow(_ cells: [Cell], number: Int, letters: [[UInt8]], to sink: ByteSink) throws {
        guard cells.contains(where: { !$0.isEmpty }) else { return }
        sink.append(#"<row r=""#)
        sink.append(decimal: number)
        sink.append(#"">"#)
        for (index, cell) in cells.enumerated() where !cell.isEmpty {
            let column = index + 1
            sink.append(#"<c r=""#)
            sink.append(bytes: column < letters.count ? letters[column] : Array(CellReference.columnLetters(column).utf8))
            sink.append(decimal: number)
            switch cell {
            case .empty:
                break
            case .text(let text), .error(let text):
                sink.append(#"" t="inlineStr"><is>"#)
                try writeText(text, column: column, row: number, to: sink)
                sink.append("</is></c>")
            case .number(let text):
                sink.append(#""><v>"#)
                try writeNumber(text, column: column, row: number, to: sink)
                sink.append("</v></c>")
            case .dateSerial(let text):
                sink.append(#"" s=""#)
                sink.append(decimal: Self.hasTimeOfDay(text) ? styles.dateTime : styles.date)
                sink.append(#""><v>"#)
                try writeNumber(DateSerial.stored(text, uses1904: uses1904), column: column, row: number, to: sink)
                sink.append("</v></c>")
            case .bool(let value):
                sink.append(value ? #"" t="b"><v>1</v></c>"# : #"" t="b"><v>0</v></c>"#)
            }
        }
        sink.append("</row>")
    }

    private func writeText(_ text: String, column: Int, row: Int, to sink: ByteSink) throws {
        if text.utf8.count > Self.maximumTextLength, text.utf16.count > Self.maximumTextLength {
            throw invalid(column, row, "holds \(text.utf16.count) characters; Excel allows \(Self.maximumTextLength)")
        }
        let escaped = OOXMLEscape.mayNeedEscaping(text.utf8) ? OOXMLEscape.escape(text) : text
        let utf8 = escaped.utf8
        if let first = utf8.first, let last = utf8.last, Self.isXMLSpace(first) || Self.isXMLSpace(last) {
            sink.append(#"<t xml:space="preserve">"#)
        } else {
            sink.append("<t>")
        }
        XMLText.append(escaped, to: sink)
        sink.append("</t>")
    }

    private func writeNumber(_ text: String, column: Int, row: Int, to sink: ByteSink) throws {
        var utf8 = Substring(text).utf8
        guard NumberText.isValid(utf8) else { throw invalid(column, row, "holds '\(text)', which is not a number") }
        if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        sink.append(bytes: utf8)
    }

    private func invalid(_ column: Int, _ row: Int, _ problem: String) -> XLSXError {
        XLSXError(
            .invalidCell, file: file, part: part,
            "cannot be written: sheet '\(sheet.name)' cell \(CellReference.name(column: column, row: row)) \(problem)")
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether a serial carries a time of day (a non-zero fraction), which picks the date-time style.
    static func hasTimeOfDay(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) else {
            return false
        }
        guard let value = Double(text) else { return false }
        return value != value.rounded(.down)
    }
}

/// Escapes element text: `&`, `<`, `>`, and `\r` (as `&#13;`, which XML's line-end
/// normalisation would otherwise turn into `\n`).
enum XMLText {
    static func append(_ text: String, to sink: ByteSink) {
        let utf8 = text.utf8
        guard utf8.contains(where: needsEscape) else {
            sink.append(bytes: utf8)
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): sink.append("&amp;")
            case UInt8(ascii: "<"): sink.append("&lt;")
            case UInt8(ascii: ">"): sink.append("&gt;")
            case 0x0D: sink.append("&#13;")
            default: sink.append(byte)
            }
        }
    }

    /// Escapes an attribute value (double-quoted) or element text into a string, for the small
    /// package parts and patched cells.
    static func attribute(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { "&<>\"\r".unicodeScalars.contains($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == 0x0D
    }
}
