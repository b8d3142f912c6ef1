import Foundation
import Interchange

/// `spreadsheets.create`, `get`, `getByDataFilter`, `batchUpdate` and the developer metadata methods.
enum SheetsSpreadsheets {
    static func serve(_ id: String, request: EmulatorRequest, match: MatchedMethod, world: inout EmulatorWorld)
        throws(GoogleAPIError) -> EmulatorResponse
    {
        let spreadsheetId = match.pathParameters["spreadsheetId"] ?? ""
        let value: JSONValue
        switch id {
        case "sheets.spreadsheets.create":
            value = try world.createSpreadsheet(from: request.jsonBody() ?? .object([:])).json(includeGridData: false)
        case "sheets.spreadsheets.get":
            value = try get(world.liveSpreadsheet(spreadsheetId), request: request)
        case "sheets.spreadsheets.getByDataFilter":
            value = try getByDataFilter(world.liveSpreadsheet(spreadsheetId), request: request)
        case "sheets.spreadsheets.batchUpdate":
            value = try batchUpdate(spreadsheetId, request: request, world: &world)
        case "sheets.spreadsheets.developerMetadata.search":
            value = try searchMetadata(world.liveSpreadsheet(spreadsheetId), request: request)
        case "sheets.spreadsheets.developerMetadata.get":
            value = try metadata(match.pathParameters["metadataId"], in: world.liveSpreadsheet(spreadsheetId))
        default:
            throw .unimplemented("The emulator does not implement \(id).")
        }
        return try answer(value, request: request)
    }

    private static func get(_ sheet: SpreadsheetState, request: EmulatorRequest) throws(GoogleAPIError) -> JSONValue {
        var ranges: [BoundRange] = []
        for text in request.queryAll("ranges") { ranges.append(try sheet.bind(text)) }
        let grid = request.query("includeGridData") == "true" || (!ranges.isEmpty && request.query("includeGridData") == nil)
        return sheet.json(includeGridData: grid, ranges: ranges)
    }

    private static func getByDataFilter(_ sheet: SpreadsheetState, request: EmulatorRequest) throws(GoogleAPIError) -> JSONValue {
        let body = try request.jsonBody() ?? .object([:])
        var ranges: [BoundRange] = []
        for (i, filter) in (body["dataFilters"]?.arrayValue ?? []).enumerated() {
            ranges += try sheet.filterRanges(filter, anchors: sheet.metadataAnchors(), path: "dataFilters[\(i)]")
        }
        return sheet.json(includeGridData: body["includeGridData"]?.boolValue ?? false, ranges: ranges)
    }

    private static func batchUpdate(_ spreadsheetId: String, request: EmulatorRequest, world: inout EmulatorWorld)
        throws(GoogleAPIError) -> JSONValue
    {
        var sheet = try world.liveSpreadsheet(spreadsheetId)
        let body = try request.jsonBody() ?? .object([:])
        let replies = try BatchUpdateRequests.apply(body["requests"]?.arrayValue ?? [], to: &sheet)
        world.persistent.spreadsheets[spreadsheetId] = sheet
        world.touch(spreadsheetId)
        var out = JSONObjectBuilder()
        out.set("spreadsheetId", spreadsheetId)
        out.set("replies", .array(replies))
        if body["includeSpreadsheetInResponse"]?.boolValue == true {
            out.set("updatedSpreadsheet", sheet.json(includeGridData: body["responseIncludeGridData"]?.boolValue ?? false))
        }
        return out.value
    }

    /// `developerMetadata.search`: each matching record once, with every filter that matched it.
    private static func searchMetadata(_ sheet: SpreadsheetState, request: EmulatorRequest) throws(GoogleAPIError) -> JSONValue {
        let body = try request.jsonBody() ?? .object([:])
        let anchors = sheet.metadataAnchors()
        var found: [(MetadataRecord, [JSONValue])] = []
        for (i, filter) in (body["dataFilters"]?.arrayValue ?? []).enumerated() {
            for record in try sheet.matchingMetadata(filter, anchors: anchors, path: "dataFilters[\(i)]") {
                if let index = found.firstIndex(where: { $0.0.id == record.id }) {
                    found[index].1.append(filter)
                } else {
                    found.append((record, [filter]))
                }
            }
        }
        guard !found.isEmpty else { return .object([:]) }
        let matched = found.map { record, filters -> JSONValue in
            ["developerMetadata": sheet.metadataJSON(record, anchors: anchors), "dataFilters": .array(filters)]
        }
        return ["matchedDeveloperMetadata": .array(matched)]
    }

    private static func metadata(_ metadataId: String?, in sheet: SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        guard let id = metadataId.flatMap(Int.init), let record = sheet.metadata[id] else {
            throw .notFound("No developer metadata with ID: \(metadataId ?? "")")
        }
        return sheet.metadataJSON(record, anchors: sheet.metadataAnchors())
    }

    /// A JSON answer reduced by the request's `fields` parameter.
    static func answer(_ value: JSONValue, request: EmulatorRequest) throws(GoogleAPIError) -> EmulatorResponse {
        guard let fields = request.query("fields"), !fields.isEmpty else { return .json(value) }
        do throws(FieldMaskError) {
            return .json(try FieldMask(parsing: fields).apply(to: value))
        } catch {
            throw .invalidArgument("Request contains an invalid argument: invalid field mask '\(error.mask)'.")
        }
    }
}

extension EmulatorWorld {
    /// Creates a spreadsheet (and its Drive file) from a `Spreadsheet` request body.
    mutating func createSpreadsheet(from body: JSONValue, parents: [String] = [DriveFiles.rootFolderId]) throws(GoogleAPIError)
        -> SpreadsheetState
    {
        var sheet = SpreadsheetState(
            id: EmulatorWorld.makeId(length: 44), title: body["properties"]?["title"]?.stringValue ?? "Untitled spreadsheet")
        if let locale = body["properties"]?["locale"]?.stringValue { sheet.locale = locale }
        if let zone = body["properties"]?["timeZone"]?.stringValue { sheet.timeZone = zone }
        for tab in body["sheets"]?.arrayValue ?? [] {
            let properties = tab["properties"] ?? .object([:])
            let grid = properties["gridProperties"]
            let position = try sheet.addSheet(
                title: properties["title"]?.stringValue ?? "Sheet\(sheet.sheets.count + 1)", sheetId: properties["sheetId"]?.integerValue,
                rowCount: grid?["rowCount"]?.integerValue ?? 1000, columnCount: grid?["columnCount"]?.integerValue ?? 26)
            sheet.sheets[position].frozenRowCount = grid?["frozenRowCount"]?.integerValue ?? 0
        }
        if sheet.sheets.isEmpty { try sheet.addSheet(title: "Sheet1") }
        persistent.spreadsheets[sheet.id] = sheet
        persistent.files[sheet.id] = EmulatedDriveFile(
            id: sheet.id, name: sheet.title, mimeType: EmulatedDriveFile.spreadsheetMimeType, parents: parents, createdTime: now,
            modifiedTime: now)
        return sheet
    }
}
