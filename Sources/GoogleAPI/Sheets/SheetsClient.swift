import Foundation
import Interchange

/// Sheets API v4 calls (https://sheets.googleapis.com/v4/…), JSON in and out.
public struct SheetsClient: Sendable {
    public let client: GoogleClient

    public init(client: GoogleClient) {
        self.client = client
    }

    public enum ValueRenderOption: String, Sendable {
        case formattedValue = "FORMATTED_VALUE"
        case unformattedValue = "UNFORMATTED_VALUE"
        case formula = "FORMULA"
    }

    public enum DateTimeRenderOption: String, Sendable {
        case serialNumber = "SERIAL_NUMBER"
        case formattedString = "FORMATTED_STRING"
    }

    public enum Dimension: String, Sendable { case rows = "ROWS", columns = "COLUMNS" }
    public enum ValueInputOption: String, Sendable { case raw = "RAW", userEntered = "USER_ENTERED" }

    private func path(_ spreadsheetId: String, _ suffix: String = "") -> String {
        "/v4/spreadsheets/" + URLEncoding.component(spreadsheetId) + suffix
    }

    /// spreadsheets.values.batchGet: one `ValueRange` per requested range, in order.
    public func batchGetValues(
        spreadsheetId: String, ranges: [String], valueRenderOption: ValueRenderOption = .unformattedValue,
        dateTimeRenderOption: DateTimeRenderOption = .serialNumber, majorDimension: Dimension = .rows
    ) async throws -> [ValueRange] {
        var query: [(String, String)] = ranges.map { ("ranges", $0) }
        query += [
            ("valueRenderOption", valueRenderOption.rawValue), ("dateTimeRenderOption", dateTimeRenderOption.rawValue),
            ("majorDimension", majorDimension.rawValue),
        ]
        let url = try client.endpoints.sheetsURL(path: path(spreadsheetId, "/values:batchGet"), query: query)
        let answer = try await client.json(.get, url)
        let items = answer["valueRanges"]?.arrayValue ?? []
        guard items.count == ranges.count else {
            throw GoogleAPIError.invalidResponse(
                "values.batchGet of spreadsheet '\(spreadsheetId)' returned \(items.count) ranges for \(ranges.count) requested")
        }
        var result: [ValueRange] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try ValueRange(json: item)) }
        return result
    }

    /// spreadsheets.values.batchUpdate: writes each range's rows (RAW by default, so text stays text).
    public func batchUpdateValues(
        spreadsheetId: String, data: [(range: String, values: [[JSONValue]])], valueInputOption: ValueInputOption = .raw
    ) async throws -> BatchUpdateValuesResult {
        let body: JSONValue = .object([
            "valueInputOption": .string(valueInputOption.rawValue),
            "data": .array(data.map { ValueRange(range: $0.range, values: $0.values).json }),
            "includeValuesInResponse": false,
        ])
        let url = try client.endpoints.sheetsURL(path: path(spreadsheetId, "/values:batchUpdate"))
        // Writing the same cells twice leaves them as writing once, so a timeout may be retried.
        let answer = try await client.json(.post, url, body: body, isIdempotent: true)
        return BatchUpdateValuesResult(json: answer)
    }

    /// spreadsheets.batchUpdate: applies the requests atomically and returns their replies.
    ///
    /// Not re-sent after a timeout, a reset or a 5xx (an insert could apply twice) unless the caller
    /// says a repeat is harmless — `guardedAgainstRepeats`, as a batch opening with a write guard is.
    public func batchUpdate(spreadsheetId: String, requests: [JSONValue], guardedAgainstRepeats: Bool = false) async throws -> [JSONValue] {
        let url = try client.endpoints.sheetsURL(path: path(spreadsheetId, ":batchUpdate"))
        let answer = try await client.json(
            .post, url, body: .object(["requests": .array(requests)]), isIdempotent: guardedAgainstRepeats)
        return answer["replies"]?.arrayValue ?? []
    }

    /// spreadsheets.batchUpdate of requests serialized already (a large write is measured and split by its
    /// callers, so each request is serialized once); returns the replies. `beforeResending` must hold
    /// before a retry sends it again (`ResendCondition`).
    public func batchUpdate(
        spreadsheetId: String, serializedRequests: [[UInt8]], guardedAgainstRepeats: Bool = false,
        beforeResending: ResendCondition? = nil
    ) async throws -> [JSONValue] {
        let url = try client.endpoints.sheetsURL(path: path(spreadsheetId, ":batchUpdate"))
        var body = Array(#"{"requests":["#.utf8)
        body.reserveCapacity(serializedRequests.reduce(16) { $0 + $1.count + 1 })
        for (i, request) in serializedRequests.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: request)
        }
        body.append(contentsOf: Array("]}".utf8))
        let answer = try await client.json(
            .post, url, serializedBody: body, isIdempotent: guardedAgainstRepeats, beforeResending: beforeResending)
        return answer["replies"]?.arrayValue ?? []
    }

    /// The size in bytes of a `spreadsheets.batchUpdate` body carrying these serialized requests.
    public static func batchUpdateBodySize(_ serializedRequests: [[UInt8]]) -> Int {
        serializedRequests.reduce(#"{"requests":[]}"#.utf8.count + max(0, serializedRequests.count - 1)) { $0 + $1.count }
    }

    /// spreadsheets.get, restricted to `fields` (a field mask such as `spreadsheetId,sheets.properties`).
    public func get(
        spreadsheetId: String, fields: String? = nil, ranges: [String] = [], includeGridData: Bool = false
    ) async throws -> JSONValue {
        var query: [(String, String)] = ranges.map { ("ranges", $0) }
        if includeGridData { query.append(("includeGridData", "true")) }
        if let fields { query.append(("fields", fields)) }
        let url = try client.endpoints.sheetsURL(path: path(spreadsheetId), query: query)
        return try await client.json(.get, url)
    }

    /// spreadsheets.developerMetadata.search for the entries with these ids: each found one, with its
    /// location (absent ids are left out).
    public func developerMetadata(spreadsheetId: String, ids: [Int]) async throws -> [JSONValue] {
        let filters: [JSONValue] = ids.map { ["developerMetadataLookup": ["metadataId": .integer($0)]] }
        let url = try client.endpoints.sheetsURL(path: path(spreadsheetId, "/developerMetadata:search"))
        // A search changes nothing: asking again is harmless.
        let answer = try await client.json(.post, url, body: .object(["dataFilters": .array(filters)]), isIdempotent: true)
        return (answer["matchedDeveloperMetadata"]?.arrayValue ?? []).compactMap { $0["developerMetadata"] }
    }

    /// The id, title and tabs of a spreadsheet.
    public func info(spreadsheetId: String) async throws -> SpreadsheetInfo {
        try SpreadsheetInfo(
            json: try await get(
                spreadsheetId: spreadsheetId,
                fields: "spreadsheetId,properties.title,sheets.properties(sheetId,title,index,gridProperties)"))
    }

    /// spreadsheets.create with one tab per title, in order; returns the new spreadsheet.
    public func create(title: String, sheets: [String]) async throws -> SpreadsheetInfo {
        let body: JSONValue = .object([
            "properties": .object(["title": .string(title)]),
            "sheets": .array(sheets.map { .object(["properties": .object(["title": .string($0)])]) }),
        ])
        let url = try client.endpoints.sheetsURL(path: "/v4/spreadsheets")
        return try SpreadsheetInfo(json: try await client.json(.post, url, body: body, isIdempotent: false))
    }
}
