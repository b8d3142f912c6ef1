import Foundation
import Interchange

/// The `Request` kinds of `spreadsheets.batchUpdate`, applied in order to a copy of the spreadsheet.
enum BatchUpdateRequests {
    /// Applies every request or none; returns one reply per request.
    static func apply(_ requests: [JSONValue], to sheet: inout SpreadsheetState) throws(GoogleAPIError) -> [JSONValue] {
        var working = sheet
        var replies: [JSONValue] = []
        for (i, request) in requests.enumerated() {
            guard let (kind, body) = request.members.first, request.members.count == 1 else {
                throw .invalidArgument("Invalid requests[\(i)]: a request must set exactly one kind.")
            }
            do throws(GoogleAPIError) {
                replies.append(try applyOne(kind, body, to: &working))
            } catch {
                var renamed = error
                renamed.message = error.message.replacingOccurrences(of: "requests[0]", with: "requests[\(i)]")
                throw renamed
            }
        }
        sheet = working
        return replies
    }

    private static func sheetIndex(_ json: JSONValue?, in sheet: SpreadsheetState, kind: String) throws(GoogleAPIError) -> Int {
        let id = json?.integerValue ?? 0
        guard let index = sheet.sheetIndex(id: id) else { throw .invalidArgument("Invalid requests[0].\(kind): No grid with id: \(id)") }
        return index
    }

    private static func dimensionRange(_ json: JSONValue?, in sheet: SpreadsheetState, kind: String)
        throws(GoogleAPIError) -> (Int, Dimension, Range<Int>)
    {
        let s = try sheetIndex(json?["sheetId"], in: sheet, kind: kind)
        guard let dimension = json?["dimension"]?.stringValue.flatMap(Dimension.init(rawValue:)) else {
            throw .invalidArgument("Invalid requests[0].\(kind): dimension must be ROWS or COLUMNS.")
        }
        let limit = dimension == .rows ? sheet.sheets[s].rowCount : sheet.sheets[s].columnCount
        let start = json?["startIndex"]?.integerValue ?? 0
        let end = json?["endIndex"]?.integerValue ?? limit
        guard start >= 0, end >= start else { throw .invalidArgument("Invalid requests[0].\(kind): invalid dimension range.") }
        return (s, dimension, start..<end)
    }

    private static func applyOne(_ kind: String, _ body: JSONValue, to sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        switch kind {
        case "addSheet":
            return try addSheet(body, to: &sheet)
        case "deleteSheet":
            try deleteSheet(body, from: &sheet)
        case "updateSheetProperties":
            try updateSheetProperties(body, in: &sheet)
        case "insertDimension":
            let (s, dimension, range) = try dimensionRange(body["range"], in: sheet, kind: kind)
            try sheet.insert(
                dimension, sheet: s, at: range.lowerBound, count: range.count,
                inheritFromBefore: body["inheritFromBefore"]?.boolValue ?? false)
        case "deleteDimension":
            let (s, dimension, range) = try dimensionRange(body["range"], in: sheet, kind: kind)
            try sheet.delete(dimension, sheet: s, range: range)
        case "moveDimension":
            let (s, dimension, range) = try dimensionRange(body["source"], in: sheet, kind: kind)
            try sheet.move(dimension, sheet: s, source: range, destination: body["destinationIndex"]?.integerValue ?? 0)
        case "appendDimension":
            try appendDimension(body, to: &sheet)
        case "updateCells":
            try CellUpdates.updateCells(body, in: &sheet)
        case "repeatCell":
            try CellUpdates.repeatCell(body, in: &sheet)
        case "sortRange":
            try sortRange(body, in: &sheet)
        case "createDeveloperMetadata":
            let record = try sheet.createMetadata(body["developerMetadata"] ?? .object([:]), at: "requests[0].createDeveloperMetadata")
            return ["createDeveloperMetadata": ["developerMetadata": sheet.metadataJSON(record, anchors: sheet.metadataAnchors())]]
        case "deleteDeveloperMetadata":
            return try deleteDeveloperMetadata(body, from: &sheet)
        case "updateDeveloperMetadata":
            return try updateDeveloperMetadata(body, in: &sheet)
        case "updateSpreadsheetProperties":
            if let title = body["properties"]?["title"]?.stringValue { sheet.title = title }
            if let zone = body["properties"]?["timeZone"]?.stringValue { sheet.timeZone = zone }
        case "updateDimensionProperties", "autoResizeDimensions":
            // Pixel sizes and visibility of rows and columns do not affect values; accepted and ignored.
            break
        default:
            throw .unimplemented("Invalid requests[0]: the emulator does not implement the '\(kind)' request.")
        }
        return .object([:])
    }

    private static func addSheet(_ body: JSONValue, to sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let properties = body["properties"] ?? .object([:])
        let grid = properties["gridProperties"]
        let position = try sheet.addSheet(
            title: properties["title"]?.stringValue ?? "Sheet\(sheet.sheets.count + 1)", sheetId: properties["sheetId"]?.integerValue,
            index: properties["index"]?.integerValue, rowCount: grid?["rowCount"]?.integerValue ?? 1000,
            columnCount: grid?["columnCount"]?.integerValue ?? 26)
        sheet.sheets[position].frozenRowCount = grid?["frozenRowCount"]?.integerValue ?? 0
        return ["addSheet": ["properties": sheet.sheetPropertiesJSON(position)]]
    }

    /// Removes a sheet and the developer metadata anchored to it; the last sheet stays.
    private static func deleteSheet(_ body: JSONValue, from sheet: inout SpreadsheetState) throws(GoogleAPIError) {
        let s = try sheetIndex(body["sheetId"], in: sheet, kind: "deleteSheet")
        guard sheet.sheets.count > 1 else {
            throw .invalidArgument("Invalid requests[0].deleteSheet: You can't remove all the sheets in a document.")
        }
        let sheetId = sheet.sheets[s].sheetId
        sheet.removeMetadata(ids: sheet.metadata.values.filter { $0.sheetId == sheetId }.map(\.id))
        sheet.sheets.remove(at: s)
    }

    private static func appendDimension(_ body: JSONValue, to sheet: inout SpreadsheetState) throws(GoogleAPIError) {
        let s = try sheetIndex(body["sheetId"], in: sheet, kind: "appendDimension")
        guard let dimension = body["dimension"]?.stringValue.flatMap(Dimension.init(rawValue:)) else {
            throw .invalidArgument("Invalid requests[0].appendDimension: dimension must be ROWS or COLUMNS.")
        }
        try sheet.append(dimension, sheet: s, count: body["length"]?.integerValue ?? 0)
    }

    private static func sortRange(_ body: JSONValue, in sheet: inout SpreadsheetState) throws(GoogleAPIError) {
        let range = try sheet.bind(grid: body["range"] ?? .object([:]), path: "requests[0].sortRange.range")
        let keys = (body["sortSpecs"]?.arrayValue ?? []).map {
            SortKey(column: $0["dimensionIndex"]?.integerValue ?? 0, ascending: $0["sortOrder"]?.stringValue != "DESCENDING")
        }
        try sheet.sort(sheet: range.sheetIndex, rows: range.rows, columns: range.columns, keys: keys)
    }

    /// Removes the metadata a data filter matches and answers with what was removed.
    private static func deleteDeveloperMetadata(_ body: JSONValue, from sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let anchors = sheet.metadataAnchors()
        let doomed = try sheet.matchingMetadata(
            body["dataFilter"] ?? .object([:]), anchors: anchors, path: "requests[0].deleteDeveloperMetadata")
        let shown = doomed.map { sheet.metadataJSON($0, anchors: anchors) }
        sheet.removeMetadata(ids: doomed.map(\.id))
        return ["deleteDeveloperMetadata": shown.isEmpty ? .object([:]) : ["deletedDeveloperMetadata": .array(shown)]]
    }

    private static func updateSheetProperties(_ body: JSONValue, in sheet: inout SpreadsheetState) throws(GoogleAPIError) {
        let properties = body["properties"] ?? .object([:])
        let s = try sheetIndex(properties["sheetId"], in: sheet, kind: "updateSheetProperties")
        guard let fieldsText = body["fields"]?.stringValue, let mask = try? FieldMask(parsing: fieldsText) else {
            throw .invalidArgument("Invalid requests[0].updateSheetProperties: At least one field must be specified in 'fields'.")
        }
        let grid = properties["gridProperties"]
        if mask.covers("title"), let title = properties["title"]?.stringValue, title != sheet.sheets[s].title {
            guard sheet.sheetIndex(title: title) == nil else {
                throw .invalidArgument("Invalid requests[0].updateSheetProperties: A sheet with the name \"\(title)\" already exists.")
            }
            sheet.sheets[s].title = title
        }
        if mask.covers("hidden") { sheet.sheets[s].hidden = properties["hidden"]?.boolValue ?? false }
        if mask.covers("gridProperties.frozenRowCount") { sheet.sheets[s].frozenRowCount = grid?["frozenRowCount"]?.integerValue ?? 0 }
        if mask.covers("gridProperties.frozenColumnCount") {
            sheet.sheets[s].frozenColumnCount = grid?["frozenColumnCount"]?.integerValue ?? 0
        }
        if mask.covers("gridProperties.rowCount"), let rows = grid?["rowCount"]?.integerValue, rows != sheet.sheets[s].rowCount {
            if rows > sheet.sheets[s].rowCount {
                try sheet.append(.rows, sheet: s, count: rows - sheet.sheets[s].rowCount)
            } else {
                try sheet.delete(.rows, sheet: s, range: rows..<sheet.sheets[s].rowCount)
            }
        }
        if mask.covers("gridProperties.columnCount"), let columns = grid?["columnCount"]?.integerValue,
            columns != sheet.sheets[s].columnCount
        {
            if columns > sheet.sheets[s].columnCount {
                try sheet.append(.columns, sheet: s, count: columns - sheet.sheets[s].columnCount)
            } else {
                try sheet.delete(.columns, sheet: s, range: columns..<sheet.sheets[s].columnCount)
            }
        }
        if mask.covers("index"), let index = properties["index"]?.integerValue {
            let moved = sheet.sheets.remove(at: s)
            sheet.sheets.insert(moved, at: max(0, min(index, sheet.sheets.count)))
        }
    }

    private static func updateDeveloperMetadata(_ body: JSONValue, in sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        guard let fieldsText = body["fields"]?.stringValue, let mask = try? FieldMask(parsing: fieldsText) else {
            throw .invalidArgument("Invalid requests[0].updateDeveloperMetadata: At least one field must be specified in 'fields'.")
        }
        let anchors = sheet.metadataAnchors()
        var matched: [MetadataRecord] = []
        for (i, filter) in (body["dataFilters"]?.arrayValue ?? []).enumerated() {
            for record in try sheet.matchingMetadata(
                filter, anchors: anchors, path: "requests[0].updateDeveloperMetadata.dataFilters[\(i)]")
            where !matched.contains(where: { $0.id == record.id }) {
                matched.append(record)
            }
        }
        let update = body["developerMetadata"] ?? .object([:])
        for var record in matched {
            if mask.covers("metadataKey"), let key = update["metadataKey"]?.stringValue { record.key = key }
            if mask.covers("metadataValue") { record.value = update["metadataValue"]?.stringValue }
            if mask.covers("visibility"), let visibility = update["visibility"]?.stringValue { record.visibility = visibility }
            sheet.metadata[record.id] = record
            if mask.covers("location"), let location = update["location"] {
                sheet.removeMetadata(ids: [record.id])
                var replacement = update
                replacement = .object(
                    JSONObject([
                        ("metadataId", .number(record.id)), ("metadataKey", .string(record.key)),
                        ("metadataValue", record.value.map(JSONValue.string) ?? .null), ("visibility", .string(record.visibility)),
                        ("location", location),
                    ]))
                _ = try sheet.createMetadata(replacement, at: "requests[0].updateDeveloperMetadata")
            }
        }
        let after = sheet.metadataAnchors()
        let shown = matched.compactMap { sheet.metadata[$0.id] }.map { sheet.metadataJSON($0, anchors: after) }
        return ["updateDeveloperMetadata": ["developerMetadata": .array(shown)]]
    }
}
