import Interchange

/// The `Spreadsheet` resource in the API's JSON shape.
extension SpreadsheetState {
    func sheetPropertiesJSON(_ index: Int) -> JSONValue {
        let sheet = sheets[index]
        var grid = JSONObjectBuilder()
        grid.set("rowCount", sheet.rowCount)
        grid.set("columnCount", sheet.columnCount)
        if sheet.frozenRowCount > 0 { grid.set("frozenRowCount", sheet.frozenRowCount) }
        if sheet.frozenColumnCount > 0 { grid.set("frozenColumnCount", sheet.frozenColumnCount) }
        var out = JSONObjectBuilder()
        out.set("sheetId", sheet.sheetId)
        out.set("title", sheet.title)
        out.set("index", index)
        out.set("sheetType", "GRID")
        out.set("gridProperties", grid.value)
        if sheet.hidden { out.set("hidden", true) }
        return out.value
    }

    /// The whole resource; `gridData` adds `sheets[].data` for the given ranges (all tabs when empty).
    func json(includeGridData: Bool, ranges: [BoundRange] = []) -> JSONValue {
        let anchors = metadataAnchors()
        let records = metadata.values.sorted { $0.id < $1.id }
        var sheetsJSON: [JSONValue] = []
        // Asked for ranges, Google answers with the tabs they name only.
        for (index, sheet) in sheets.enumerated() where ranges.isEmpty || ranges.contains(where: { $0.sheetIndex == index }) {
            var entry = JSONObjectBuilder()
            entry.set("properties", sheetPropertiesJSON(index))
            let own = records.filter { $0.placement != .spreadsheet && $0.sheetId == sheet.sheetId }
            if !own.isEmpty { entry.set("developerMetadata", .array(own.map { metadataJSON($0, anchors: anchors) })) }
            if includeGridData {
                let wanted =
                    ranges.isEmpty
                    ? [BoundRange(sheetIndex: index, rows: 0..<sheet.rowCount, columns: 0..<sheet.columnCount)]
                    : ranges.filter { $0.sheetIndex == index }
                if !wanted.isEmpty { entry.set("data", .array(wanted.map(gridDataJSON))) }
            }
            sheetsJSON.append(entry.value)
        }
        var properties = JSONObjectBuilder()
        properties.set("title", title)
        properties.set("locale", locale)
        properties.set("autoRecalc", "ON_CHANGE")
        properties.set("timeZone", timeZone)
        var out = JSONObjectBuilder()
        out.set("spreadsheetId", id)
        out.set("properties", properties.value)
        out.set("sheets", .array(sheetsJSON))
        let top = records.filter { $0.placement == .spreadsheet }
        if !top.isEmpty { out.set("developerMetadata", .array(top.map { metadataJSON($0, anchors: anchors) })) }
        out.set("spreadsheetUrl", "https://docs.google.com/spreadsheets/d/\(id)/edit")
        return out.value
    }

    /// `GridData` for one rectangle: user-entered and effective values, formats, formatted text.
    func gridDataJSON(_ range: BoundRange) -> JSONValue {
        let sheet = sheets[range.sheetIndex]
        let rows = range.rows.clamped(to: 0..<min(sheet.rowCount, max(sheet.usedRowCount, range.rows.lowerBound)))
        let formatted = ValueRenderer(valueOption: .formatted)
        var rowData: [JSONValue] = []
        for r in rows {
            var values: [JSONValue] = []
            for c in range.columns.clamped(to: 0..<sheet.columnCount) {
                let cell = sheet.cell(row: r, column: c)
                var data = JSONObjectBuilder()
                if let extended = Self.extendedValue(cell.value) {
                    data.set("userEnteredValue", extended)
                    if case .formula = cell.value {} else { data.set("effectiveValue", extended) }
                    data.set("formattedValue", formatted.render(cell))
                }
                if let format = cell.numberFormat {
                    let numberFormat: JSONValue = ["type": .string(format.type), "pattern": .string(format.pattern)]
                    data.set("userEnteredFormat", ["numberFormat": numberFormat] as JSONValue)
                    data.set("effectiveFormat", ["numberFormat": numberFormat] as JSONValue)
                }
                values.append(data.value)
            }
            while let last = values.last, last == .object([:]) { values.removeLast() }
            rowData.append(values.isEmpty ? .object([:]) : ["values": .array(values)])
        }
        while let last = rowData.last, last == .object([:]) { rowData.removeLast() }
        var out = JSONObjectBuilder()
        if range.rows.lowerBound > 0 { out.set("startRow", range.rows.lowerBound) }
        if range.columns.lowerBound > 0 { out.set("startColumn", range.columns.lowerBound) }
        out.set("rowData", .array(rowData))
        return out.value
    }

    /// An `ExtendedValue` object, nil for an empty cell.
    static func extendedValue(_ value: EmulatedValue) -> JSONValue? {
        switch value {
        case .empty: return nil
        case .number(let n): return ["numberValue": .number(n)]
        case .string(let s): return ["stringValue": .string(s)]
        case .bool(let b): return ["boolValue": .bool(b)]
        case .formula(let f): return ["formulaValue": .string(f)]
        }
    }

    /// Reads an `ExtendedValue` object back into a cell value.
    static func value(ofExtended json: JSONValue?) -> EmulatedValue {
        guard let json else { return .empty }
        if let number = json["numberValue"]?.doubleValue { return .number(number) }
        if let text = json["stringValue"]?.stringValue { return .string(text) }
        if let flag = json["boolValue"]?.boolValue { return .bool(flag) }
        if let formula = json["formulaValue"]?.stringValue { return .formula(formula) }
        return .empty
    }
}
