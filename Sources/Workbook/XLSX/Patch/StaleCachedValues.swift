import Foundation

/// Formula cells whose cached result a push makes stale lose that result, so every spreadsheet
/// shows the recalculated value on open.
///
/// `fullCalcOnLoad` makes Excel recompute everything, but LibreOffice by default ("never
/// recalculate" Excel files) trusts a cached `<v>` and computes only the formulas that have none.
/// So the patch drops the cached value (and its type `t`) of the formulas that can depend on what
/// it changed: those in a changed row of a ledger sheet (a Total column's `=F3*2`), those in other
/// rows that read a changed, added or deleted row or a whole column (`WorksheetPatcher`), those
/// in other sheets that name a patched sheet (a Summary's `=SUM(Transactions!F:F)`), and every
/// formula that reads one of these, however long the chain and in whichever sheet (a running
/// balance's later rows, a Summary's `=B2*2`, a formula through a defined name), as
/// `StaleFormulas` finds them. The formula itself and the cell's style stay; rejected rows keep
/// everything.
enum StaleCachedValues {
    /// The cell without its cached result, when it has a formula; otherwise the cell as it was.
    static func dropped(_ cell: RowXML.CellXML, prefix: String) -> RowXML.CellXML {
        guard cell.formula(prefix: prefix) != nil, let inner = cell.inner else { return cell }
        var cell = cell
        cell.inner = withoutValue(inner, prefix: prefix)
        cell.attributes["t"] = nil
        return cell
    }

    /// `inner` (a cell's content) without its `<v>` element.
    static func withoutValue(_ inner: String, prefix: String) -> String {
        guard let start = inner.range(of: "<\(prefix)v") else { return inner }
        let after = inner[start.upperBound...]
        guard let next = after.first, next == ">" || next == "/" || next == " " else { return inner }
        if let selfClosing = after.range(of: "/>"), !after[..<selfClosing.lowerBound].contains(">") {
            return String(inner[..<start.lowerBound] + inner[selfClosing.upperBound...])
        }
        guard let end = after.range(of: "</\(prefix)v>") else { return inner }
        return String(inner[..<start.lowerBound] + inner[end.upperBound...])
    }

    /// A worksheet's text with the cached results dropped from every formula that names one of
    /// `sheets` (lowercased), a shared formula's other cells included, and from the formula cells
    /// at `stale` (`StaleFormulas.key`; cells without an `r` are judged by their text alone).
    static func edit(_ text: String, naming sheets: Set<String>, stale: Set<Int> = []) -> String {
        guard !sheets.isEmpty || !stale.isEmpty else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        var sharedStale: Set<String> = []
        while let open = rest.firstMatch(of: /<([A-Za-z0-9_]+:)?c[\s>\/]/) {
            let prefix = String(open.output.1 ?? "")
            out += rest[..<open.range.lowerBound]
            let from = open.range.lowerBound
            guard let tagClose = rest[from...].firstIndex(of: ">") else { break }
            let tag = rest[from...tagClose]
            let cellEnd: Substring.Index
            if tag.hasSuffix("/>") {
                cellEnd = rest.index(after: tagClose)
            } else if let close = rest[tagClose...].range(of: "</\(prefix)c>") {
                cellEnd = close.upperBound
            } else {
                break
            }
            let element = rest[from..<cellEnd]
            rest = rest[cellEnd...]
            guard !tag.hasSuffix("/>") else {
                out += element
                continue
            }
            let inner = String(rest.base[rest.base.index(after: tagClose)..<rest.base.index(cellEnd, offsetBy: -(prefix.count + 4))])
            let cell = RowXML.CellXML(attributes: TagAttributes(tag: tag), inner: inner, column: 0)
            guard let formula = cell.formula(prefix: prefix) else {
                out += element
                continue
            }
            var isStale = names(XMLEntities.unescape(formula.text), sheets)
            if formula.attributes["t"] == "shared", let si = formula.attributes["si"] {
                if isStale { sharedStale.insert(si) } else if formula.text.isEmpty { isStale = sharedStale.contains(si) }
            }
            if !isStale, !stale.isEmpty, let place = cell.attributes["r"].flatMap({ A1Range.cell($0) }),
                let column = CellReference.columnNumber(place.column)
            {
                isStale = stale.contains(StaleFormulas.key(row: place.row, column: column))
            }
            guard isStale else {
                out += element
                continue
            }
            let head = tag.prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != ">" && $0 != "/" }
            let moved = dropped(cell, prefix: prefix)
            out += head + moved.attributes.text + ">" + (moved.inner ?? "") + "</\(prefix)c>"
        }
        return out + rest
    }

    /// Whether `formula` refers to one of `sheets` by name (`Transactions!F2`, `'My Sheet'!F:F`).
    private static func names(_ formula: String, _ sheets: Set<String>) -> Bool {
        let lower = formula.lowercased()
        return sheets.contains { sheet in
            lower.contains(sheet + "!") || lower.contains("'" + sheet.replacingOccurrences(of: "'", with: "''") + "'!")
        }
    }
}
