import Interchange

extension SpreadsheetState {
    /// The developer metadata entries a `DataFilter` selects (lookup, A1 range or grid range).
    func matchingMetadata(_ filter: JSONValue, anchors: [Int: MetadataAnchor], path: String) throws(GoogleAPIError) -> [MetadataRecord] {
        let records = metadata.values.sorted { $0.id < $1.id }
        if let lookup = filter["developerMetadataLookup"] {
            return records.filter { lookupMatches(lookup, $0, anchors: anchors) }
        }
        let ranges = try filterRanges(filter, anchors: anchors, path: path)
        return records.filter { record in
            gridRanges(of: record, anchors: anchors).contains { covered in
                ranges.contains {
                    $0.sheetIndex == covered.sheetIndex && $0.rows.overlaps(covered.rows) && $0.columns.overlaps(covered.columns)
                }
            }
        }
    }

    /// The grid rectangles a `DataFilter` selects for reading or writing values.
    func filterRanges(_ filter: JSONValue, anchors: [Int: MetadataAnchor], path: String) throws(GoogleAPIError) -> [BoundRange] {
        if let a1 = filter["a1Range"]?.stringValue {
            return [try bind(a1)]
        }
        if let grid = filter["gridRange"] {
            return [try bind(grid: grid, path: path)]
        }
        if let lookup = filter["developerMetadataLookup"] {
            let records = metadata.values.sorted { $0.id < $1.id }.filter { lookupMatches(lookup, $0, anchors: anchors) }
            return records.flatMap { gridRanges(of: $0, anchors: anchors) }
        }
        throw .invalidArgument("Invalid \(path): a data filter needs developerMetadataLookup, a1Range or gridRange.")
    }

    /// A `GridRange` object bound to its tab; absent bounds run to the grid's edge.
    func bind(grid: JSONValue, path: String) throws(GoogleAPIError) -> BoundRange {
        let sheetId = grid["sheetId"]?.integerValue ?? 0
        guard let s = sheetIndex(id: sheetId) else { throw .invalidArgument("Invalid \(path): No grid with id: \(sheetId)") }
        let sheet = sheets[s]
        let rows = (grid["startRowIndex"]?.integerValue ?? 0)..<(grid["endRowIndex"]?.integerValue ?? sheet.rowCount)
        let columns = (grid["startColumnIndex"]?.integerValue ?? 0)..<(grid["endColumnIndex"]?.integerValue ?? sheet.columnCount)
        guard rows.lowerBound >= 0, columns.lowerBound >= 0 else { throw .invalidArgument("Invalid \(path): negative grid index.") }
        return BoundRange(sheetIndex: s, rows: rows, columns: columns, openEndedRows: grid["endRowIndex"] == nil)
    }

    private func lookupMatches(_ lookup: JSONValue, _ record: MetadataRecord, anchors: [Int: MetadataAnchor]) -> Bool {
        if let id = lookup["metadataId"]?.integerValue, id != record.id { return false }
        if let key = lookup["metadataKey"]?.stringValue, key != record.key { return false }
        if let value = lookup["metadataValue"]?.stringValue, value != record.value { return false }
        if let visibility = lookup["visibility"]?.stringValue, visibility != record.visibility { return false }
        if let type = lookup["locationType"]?.stringValue, type != record.placement.rawValue { return false }
        guard let location = lookup["metadataLocation"] else { return true }
        let intersecting = lookup["locationMatchingStrategy"]?.stringValue == "INTERSECTING_LOCATION"
        if let type = location["locationType"]?.stringValue, type != record.placement.rawValue { return false }
        if location["spreadsheet"]?.boolValue == true {
            return intersecting || record.placement == .spreadsheet
        }
        if let sheetId = location["sheetId"]?.integerValue {
            return intersecting ? record.sheetId == sheetId : record.placement == .sheet && record.sheetId == sheetId
        }
        if let range = location["dimensionRange"] {
            guard record.placement == .row || record.placement == .column, let anchor = anchors[record.id],
                range["sheetId"]?.integerValue == record.sheetId,
                range["dimension"]?.stringValue == (record.placement == .row ? "ROWS" : "COLUMNS")
            else { return false }
            let wanted = (range["startIndex"]?.integerValue ?? 0)..<(range["endIndex"]?.integerValue ?? Int.max)
            let actual = anchor.index..<anchor.index + record.span
            return intersecting ? wanted.overlaps(actual) : wanted == actual
        }
        return true
    }
}
