import Interchange

/// The `spreadsheets.values.*` methods.
enum SheetsValues {
    static func serve(_ id: String, request: EmulatorRequest, match: MatchedMethod, world: inout EmulatorWorld)
        throws(GoogleAPIError) -> EmulatorResponse
    {
        let spreadsheetId = match.pathParameters["spreadsheetId"] ?? ""
        var sheet = try world.liveSpreadsheet(spreadsheetId)
        let call = ValuesCall(
            spreadsheetId: spreadsheetId, request: request, range: match.pathParameters["range"] ?? "",
            body: try request.jsonBody() ?? .object([:]))
        let answer: JSONValue
        switch id {
        case "sheets.spreadsheets.values.get": answer = try call.get(sheet)
        case "sheets.spreadsheets.values.batchGet": answer = try call.batchGet(sheet)
        case "sheets.spreadsheets.values.batchGetByDataFilter": answer = try call.batchGetByDataFilter(sheet)
        case "sheets.spreadsheets.values.batchUpdate", "sheets.spreadsheets.values.batchUpdateByDataFilter":
            answer = try call.batchUpdate(&sheet)
        case "sheets.spreadsheets.values.update": answer = try call.update(&sheet)
        case "sheets.spreadsheets.values.append": answer = try call.append(&sheet)
        case "sheets.spreadsheets.values.clear": answer = try call.clear(&sheet)
        case "sheets.spreadsheets.values.batchClear": answer = try call.batchClear(&sheet)
        default:
            throw .unimplemented("The emulator does not implement \(id).")
        }
        if request.method != "GET" && id != "sheets.spreadsheets.values.batchGetByDataFilter" {
            world.persistent.spreadsheets[spreadsheetId] = sheet
            world.touch(spreadsheetId)
        }
        return try SheetsSpreadsheets.answer(answer, request: request)
    }

    static func renderer(value: String?, dateTime: String?) throws(GoogleAPIError) -> ValueRenderer {
        guard let valueOption = ValueRenderOption(rawValue: value ?? "FORMATTED_VALUE") else {
            throw .invalidArgument("Invalid valueRenderOption: \(value ?? "")")
        }
        guard let dateOption = DateTimeRenderOption(rawValue: dateTime ?? "SERIAL_NUMBER") else {
            throw .invalidArgument("Invalid dateTimeRenderOption: \(dateTime ?? "")")
        }
        return ValueRenderer(valueOption: valueOption, dateTimeOption: dateOption)
    }

    static func inputOption(_ text: String?) throws(GoogleAPIError) -> ValueInputOption {
        guard let text, let option = ValueInputOption(rawValue: text), option != .unspecified else {
            throw .invalidArgument("'valueInputOption' is required but not specified")
        }
        return option
    }
}

/// One `spreadsheets.values.*` request: a function per method, each returning the JSON answer.
private struct ValuesCall {
    let spreadsheetId: String
    let request: EmulatorRequest
    /// The `{range}` path parameter of the single-range methods.
    let range: String
    let body: JSONValue

    func get(_ sheet: SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let renderer = try queryRenderer()
        return try sheet.read(sheet.bind(range), major: request.query("majorDimension"), renderer: renderer)
    }

    func batchGet(_ sheet: SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let renderer = try queryRenderer()
        var ranges: [JSONValue] = []
        for text in request.queryAll("ranges") {
            ranges.append(try sheet.read(sheet.bind(text), major: request.query("majorDimension"), renderer: renderer))
        }
        return ["spreadsheetId": .string(spreadsheetId), "valueRanges": .array(ranges)]
    }

    func batchGetByDataFilter(_ sheet: SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let renderer = try SheetsValues.renderer(
            value: body["valueRenderOption"]?.stringValue, dateTime: body["dateTimeRenderOption"]?.stringValue)
        let anchors = sheet.metadataAnchors()
        var ranges: [JSONValue] = []
        for (i, filter) in (body["dataFilters"]?.arrayValue ?? []).enumerated() {
            for range in try sheet.filterRanges(filter, anchors: anchors, path: "dataFilters[\(i)]") {
                let valueRange = sheet.read(range, major: body["majorDimension"]?.stringValue, renderer: renderer)
                ranges.append(["valueRange": valueRange, "dataFilters": [filter]])
            }
        }
        return ranges.isEmpty
            ? ["spreadsheetId": .string(spreadsheetId)] : ["spreadsheetId": .string(spreadsheetId), "valueRanges": .array(ranges)]
    }

    /// `batchUpdate` and `batchUpdateByDataFilter`: each entry names its range or a data filter.
    func batchUpdate(_ sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let input = try SheetsValues.inputOption(body["valueInputOption"]?.stringValue)
        let anchors = sheet.metadataAnchors()
        var responses: [JSONValue] = []
        var totals = WriteSummary()
        for (i, data) in (body["data"]?.arrayValue ?? []).enumerated() {
            let values = Self.values(data)
            let major = data["majorDimension"]?.stringValue
            if let filter = data["dataFilter"] {
                var entry = JSONObjectBuilder()
                for range in try sheet.filterRanges(filter, anchors: anchors, path: "data[\(i)].dataFilter") {
                    let summary = try sheet.writeValues(values, major: major, into: range, option: input)
                    totals.add(summary)
                    entry = summary.json(in: sheet)
                }
                entry.set("dataFilter", filter)
                responses.append(entry.value)
            } else {
                let range = try sheet.bind(data["range"]?.stringValue ?? "")
                let summary = try sheet.writeValues(values, major: major, into: range, option: input)
                totals.add(summary)
                responses.append(updated(summary, in: sheet))
            }
        }
        return totals.totalsJSON(spreadsheetId: spreadsheetId, responses: responses)
    }

    func update(_ sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let input = try SheetsValues.inputOption(request.query("valueInputOption"))
        let summary = try sheet.writeValues(
            Self.values(body), major: body["majorDimension"]?.stringValue, into: try sheet.bind(range), option: input)
        return updated(summary, in: sheet)
    }

    func append(_ sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let input = try SheetsValues.inputOption(request.query("valueInputOption"))
        let values = Self.values(body)
        let range = try sheet.bind(self.range)
        let (table, summary) = try sheet.append(
            values, major: body["majorDimension"]?.stringValue, after: range, option: input,
            insertRows: request.query("insertDataOption") == "INSERT_ROWS")
        var out = JSONObjectBuilder()
        out.set("spreadsheetId", spreadsheetId)
        out.set("tableRange", table)
        out.set("updates", updated(summary, in: sheet))
        return out.value
    }

    func clear(_ sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let cleared = try Self.clear([range], in: &sheet)
        return ["spreadsheetId": .string(spreadsheetId), "clearedRange": cleared.first ?? ""]
    }

    func batchClear(_ sheet: inout SpreadsheetState) throws(GoogleAPIError) -> JSONValue {
        let cleared = try Self.clear((body["ranges"]?.arrayValue ?? []).compactMap(\.stringValue), in: &sheet)
        return ["spreadsheetId": .string(spreadsheetId), "clearedRanges": .array(cleared)]
    }

    private func queryRenderer() throws(GoogleAPIError) -> ValueRenderer {
        try SheetsValues.renderer(value: request.query("valueRenderOption"), dateTime: request.query("dateTimeRenderOption"))
    }

    /// A write's `UpdateValuesResponse`.
    private func updated(_ summary: WriteSummary, in sheet: SpreadsheetState) -> JSONValue {
        var entry = summary.json(in: sheet)
        entry.set("spreadsheetId", spreadsheetId)
        return entry.value
    }

    /// The `values` rows of a `ValueRange`.
    private static func values(_ valueRange: JSONValue) -> [[JSONValue]] {
        valueRange["values"]?.arrayValue?.map { $0.arrayValue ?? [] } ?? []
    }

    /// Clears each range and returns the ranges as cleared, in A1 notation.
    private static func clear(_ texts: [String], in sheet: inout SpreadsheetState) throws(GoogleAPIError) -> [JSONValue] {
        var cleared: [JSONValue] = []
        for text in texts {
            let range = try sheet.bind(text)
            sheet.clearValues(range)
            cleared.append(.string(sheet.echo(range)))
        }
        return cleared
    }
}
