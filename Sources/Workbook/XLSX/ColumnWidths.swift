import SheetValues

/// Column widths (in characters) wide enough for each column's content.
///
/// Without them a `yyyy-mm-dd` date in Excel's default 8.43-character column shows as `########`.
enum ColumnWidths {
    static let minimum = 8
    static let maximum = 60

    /// One width per column up to the widest row (header included); empty when the table is empty.
    static func measure(_ table: Table) -> [Int] {
        var widths = table.header.map { width(ofText: $0.utf8.count) }
        for row in table.rows {
            if row.count > widths.count { widths.append(contentsOf: repeatElement(minimum, count: row.count - widths.count)) }
            for (index, cell) in row.enumerated() {
                let needed: Int
                switch cell {
                case .empty: continue
                case .text(let text), .error(let text): needed = width(ofText: text.utf8.count)
                case .number(let text): needed = width(ofText: text.utf8.count)
                case .dateSerial(let text):
                    needed = WorksheetXMLWriter.hasTimeOfDay(text) ? width(ofText: 19) : width(ofText: 10)
                case .bool: needed = width(ofText: 5)
                }
                if needed > widths[index] { widths[index] = needed }
            }
        }
        return widths
    }

    /// The `<cols>` element for `widths`, or nothing when there are no columns.
    static func element(_ widths: [Int]) -> String {
        guard !widths.isEmpty else { return "" }
        let columns = widths.enumerated().map { index, width in
            #"<col min="\#(index + 1)" max="\#(index + 1)" width="\#(width)" customWidth="1"/>"#
        }
        return "<cols>" + columns.joined() + "</cols>"
    }

    /// Bytes over-count non-ASCII text a little, which only widens a column.
    private static func width(ofText length: Int) -> Int {
        min(max(length + 2, minimum), maximum)
    }
}
