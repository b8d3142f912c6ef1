import Interchange

/// Where a developer metadata entry sits right now: its tab and its first row or column.
struct MetadataAnchor: Sendable, Equatable {
    var sheetIndex: Int
    var index: Int
}

extension SpreadsheetState {
    /// Finds every row and column anchor in one pass over the tabs.
    func metadataAnchors() -> [Int: MetadataAnchor] {
        var anchors: [Int: MetadataAnchor] = [:]
        for (s, sheet) in sheets.enumerated() {
            for (r, row) in sheet.rows.enumerated() { for id in row.metadataIds { anchors[id] = MetadataAnchor(sheetIndex: s, index: r) } }
            for (c, ids) in sheet.columnMetadata.enumerated() { for id in ids { anchors[id] = MetadataAnchor(sheetIndex: s, index: c) } }
        }
        return anchors
    }

    /// Creates an entry from a `DeveloperMetadata` request object and returns it as stored.
    mutating func createMetadata(_ json: JSONValue, at path: String) throws(GoogleAPIError) -> MetadataRecord {
        guard let key = json["metadataKey"]?.stringValue, !key.isEmpty else {
            throw .invalidArgument("Invalid \(path): Developer metadata key must be specified.")
        }
        guard let visibility = json["visibility"]?.stringValue, ["DOCUMENT", "PROJECT"].contains(visibility) else {
            throw .invalidArgument("Invalid \(path): Developer metadata visibility must be specified.")
        }
        let id = json["metadataId"]?.integerValue ?? nextMetadataId
        guard metadata[id] == nil else { throw .invalidArgument("Invalid \(path): Developer metadata with ID \(id) already exists.") }
        nextMetadataId = max(nextMetadataId, id) + 1
        var record = MetadataRecord(
            id: id, key: key, value: json["metadataValue"]?.stringValue, visibility: visibility, placement: .spreadsheet)
        let location = json["location"] ?? .null
        if location["spreadsheet"]?.boolValue == true {
            record.placement = .spreadsheet
        } else if let sheetId = location["sheetId"]?.integerValue {
            guard sheetIndex(id: sheetId) != nil else { throw .invalidArgument("Invalid \(path): No grid with id: \(sheetId)") }
            record.placement = .sheet
            record.sheetId = sheetId
        } else if let range = location["dimensionRange"] {
            guard let sheetId = range["sheetId"]?.integerValue, let s = sheetIndex(id: sheetId) else {
                throw .invalidArgument("Invalid \(path): No grid with id: \(range["sheetId"]?.integerValue ?? 0)")
            }
            let dimension = range["dimension"]?.stringValue
            let start = range["startIndex"]?.integerValue ?? 0
            let limit = dimension == "COLUMNS" ? sheets[s].columnCount : sheets[s].rowCount
            let end = range["endIndex"]?.integerValue ?? limit
            guard dimension == "ROWS" || dimension == "COLUMNS", start >= 0, end > start, end <= limit else {
                throw .invalidArgument("Invalid \(path): invalid dimension range for developer metadata location.")
            }
            record.sheetId = sheetId
            record.span = end - start
            if dimension == "ROWS" {
                record.placement = .row
                sheets[s].rows[start].metadataIds.append(id)
            } else {
                record.placement = .column
                sheets[s].columnMetadata[start].append(id)
            }
        } else {
            throw .invalidArgument("Invalid \(path): Developer metadata location must be specified.")
        }
        metadata[id] = record
        return record
    }

    /// Removes entries and their anchors.
    mutating func removeMetadata(ids: [Int]) {
        let doomed = Set(ids)
        for id in ids { metadata[id] = nil }
        for s in sheets.indices {
            for r in sheets[s].rows.indices where !sheets[s].rows[r].metadataIds.isEmpty {
                sheets[s].rows[r].metadataIds.removeAll { doomed.contains($0) }
            }
            for c in sheets[s].columnMetadata.indices where !sheets[s].columnMetadata[c].isEmpty {
                sheets[s].columnMetadata[c].removeAll { doomed.contains($0) }
            }
        }
    }

    /// The entry in the API's JSON shape, with its current position.
    func metadataJSON(_ record: MetadataRecord, anchors: [Int: MetadataAnchor]) -> JSONValue {
        var location = JSONObjectBuilder()
        location.set("locationType", record.placement.rawValue)
        switch record.placement {
        case .spreadsheet:
            location.set("spreadsheet", true)
        case .sheet:
            location.set("sheetId", record.sheetId)
        case .row, .column:
            let start = anchors[record.id]?.index ?? 0
            location.set(
                "dimensionRange",
                [
                    "sheetId": .number(record.sheetId ?? 0),
                    "dimension": .string(record.placement == .row ? "ROWS" : "COLUMNS"),
                    "startIndex": .number(start),
                    "endIndex": .number(start + record.span),
                ] as JSONValue)
        }
        var out = JSONObjectBuilder()
        out.set("metadataId", record.id)
        out.set("metadataKey", record.key)
        out.set("metadataValue", record.value)
        out.set("location", location.value)
        out.set("visibility", record.visibility)
        return out.value
    }

    /// The grid rectangles a row, column or sheet entry covers, for value reads and writes by filter.
    func gridRanges(of record: MetadataRecord, anchors: [Int: MetadataAnchor]) -> [BoundRange] {
        switch record.placement {
        case .spreadsheet:
            return sheets.indices.map { BoundRange(sheetIndex: $0, rows: 0..<sheets[$0].rowCount, columns: 0..<sheets[$0].columnCount) }
        case .sheet:
            guard let s = record.sheetId.flatMap(sheetIndex(id:)) else { return [] }
            return [BoundRange(sheetIndex: s, rows: 0..<sheets[s].rowCount, columns: 0..<sheets[s].columnCount)]
        case .row:
            guard let anchor = anchors[record.id] else { return [] }
            let sheet = sheets[anchor.sheetIndex]
            return [
                BoundRange(
                    sheetIndex: anchor.sheetIndex, rows: anchor.index..<min(anchor.index + record.span, sheet.rowCount),
                    columns: 0..<sheet.columnCount)
            ]
        case .column:
            guard let anchor = anchors[record.id] else { return [] }
            let sheet = sheets[anchor.sheetIndex]
            return [
                BoundRange(
                    sheetIndex: anchor.sheetIndex, rows: 0..<sheet.rowCount,
                    columns: anchor.index..<min(anchor.index + record.span, sheet.columnCount))
            ]
        }
    }
}
