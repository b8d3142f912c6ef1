import Interchange

/// The `spreadsheets.values.*` methods.
enum SheetsValues {
    static func serve(_ id: String, request: EmulatorRequest, match: MatchedMethod, world: inout EmulatorWorld)
        throws(GoogleAPIError) -> EmulatorResponse
    {
        let spreadsheetId = match.pathParameters["spreadsheetId"] ?? ""
        var sheet = try world.liveSpreadsheet(spreadsheetId)
        let body = try request.jsonBody() ?? .object([:])
        let answer: JSONValue
        switch id {
        case "sheets.spreadsheets.values.get":
            let renderer = try renderer(value: request.query("valueRenderOption"), dateTime: request.query("dateTimeRenderOption"))
            answer = try sheet.read(
                sheet.bind(match.pathParameters["range"] ?? ""), major: request.query("majorDimension"), renderer: renderer)
        case "sheets.spreadsheets.values.batchGet":
            let renderer = try renderer(value: request.query("valueRenderOption"), dateTime: request.query("dateTimeRenderOption"))
            var ranges: [JSONValue] = []
            for text in request.queryAll("ranges") {
                ranges.append(try sheet.read(sheet.bind(text), major: request.query("majorDimension"), renderer: renderer))
            }
            answer = ["spreadsheetId": .string(spreadsheetId), "valueRanges": .array(ranges)]
        case "sheets.spreadsheets.values.batchGetByDataFilter":
            let renderer = try renderer(value: body["valueRenderOption"]?.stringValue, dateTime: body["dateTimeRenderOption"]?.stringValue)
            let anchors = sheet.metadataAnchors()
            var ranges: [JSONValue] = []
            for (i, filter) in (body["dataFilters"]?.arrayValue ?? []).enumerated() {
                for range in try sheet.filterRanges(filter, anchors: anchors, path: "dataFilters[\(i)]") {
                    let valueRange = sheet.read(range, major: body["majorDimension"]?.stringValue, renderer: renderer)
                    ranges.append(["valueRange": valueRange, "dataFilters": [filter]])
                }
            }
            answer =
                ranges.isEmpty
                ? ["spreadsheetId": .string(spreadsheetId)] : ["spreadsheetId": .string(spreadsheetId), "valueRanges": .array(ranges)]
        case "sheets.spreadsheets.values.batchUpdate", "sheets.spreadsheets.values.batchUpdateByDataFilter":
            let input = try inputOption(body["valueInputOption"]?.stringValue)
            let anchors = sheet.metadataAnchors()
            var responses: [JSONValue] = []
            var totals = WriteSummary()
            for (i, data) in (body["data"]?.arrayValue ?? []).enumerated() {
                let values = data["values"]?.arrayValue?.map { $0.arrayValue ?? [] } ?? []
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
                    var entry = summary.json(in: sheet)
                    entry.set("spreadsheetId", spreadsheetId)
                    responses.append(entry.value)
                }
            }
            answer = totals.totalsJSON(spreadsheetId: spreadsheetId, responses: responses)
        case "sheets.spreadsheets.values.update":
            let input = try inputOption(request.query("valueInputOption"))
            let values = body["values"]?.arrayValue?.map { $0.arrayValue ?? [] } ?? []
            let summary = try sheet.writeValues(
                values, major: body["majorDimension"]?.stringValue, into: try sheet.bind(match.pathParameters["range"] ?? ""), option: input
            )
            var entry = summary.json(in: sheet)
            entry.set("spreadsheetId", spreadsheetId)
            answer = entry.value
        case "sheets.spreadsheets.values.append":
            let input = try inputOption(request.query("valueInputOption"))
            let values = body["values"]?.arrayValue?.map { $0.arrayValue ?? [] } ?? []
            let range = try sheet.bind(match.pathParameters["range"] ?? "")
            let (table, summary) = try sheet.append(
                values, major: body["majorDimension"]?.stringValue, after: range, option: input,
                insertRows: request.query("insertDataOption") == "INSERT_ROWS")
            var updates = summary.json(in: sheet)
            updates.set("spreadsheetId", spreadsheetId)
            var out = JSONObjectBuilder()
            out.set("spreadsheetId", spreadsheetId)
            out.set("tableRange", table)
            out.set("updates", updates.value)
            answer = out.value
        case "sheets.spreadsheets.values.clear", "sheets.spreadsheets.values.batchClear":
            let texts =
                id.hasSuffix(".clear")
                ? [match.pathParameters["range"] ?? ""] : (body["ranges"]?.arrayValue ?? []).compactMap(\.stringValue)
            var cleared: [JSONValue] = []
            for text in texts {
                let range = try sheet.bind(text)
                sheet.clearValues(range)
                cleared.append(.string(sheet.echo(range)))
            }
            answer =
                id.hasSuffix(".clear")
                ? ["spreadsheetId": .string(spreadsheetId), "clearedRange": cleared.first ?? ""]
                : ["spreadsheetId": .string(spreadsheetId), "clearedRanges": .array(cleared)]
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
