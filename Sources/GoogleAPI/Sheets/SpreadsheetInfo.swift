import Interchange

/// The parts of a `Spreadsheet` resource sheetsync reads: its id, title and tabs.
public struct SpreadsheetInfo: Hashable, Sendable {
    /// One tab's `SheetProperties`.
    public struct Sheet: Hashable, Sendable {
        public var sheetId: Int
        public var title: String
        public var index: Int
        public var rowCount: Int?
        public var columnCount: Int?
    }

    public var spreadsheetId: String
    public var title: String
    public var sheets: [Sheet]
    /// The whole resource as returned.
    public var json: JSONValue

    /// Reads a `Spreadsheet` JSON (from spreadsheets.get or create); missing parts read as empty.
    public init(json: JSONValue) throws(GoogleAPIError) {
        guard json.objectValue != nil else { throw GoogleAPIError.invalidResponse("a Spreadsheet is not an object") }
        spreadsheetId = json["spreadsheetId"]?.stringValue ?? ""
        title = json["properties"]?["title"]?.stringValue ?? ""
        var sheets: [Sheet] = []
        for (position, sheet) in (json["sheets"]?.arrayValue ?? []).enumerated() {
            guard let properties = sheet["properties"] else { continue }
            guard let sheetId = properties["sheetId"]?.intValue ?? (position == 0 ? 0 : nil) else {
                throw GoogleAPIError.invalidResponse("sheet \(position + 1) of spreadsheet '\(spreadsheetId)' has no sheetId")
            }
            sheets.append(
                Sheet(
                    sheetId: sheetId, title: properties["title"]?.stringValue ?? "",
                    index: properties["index"]?.intValue ?? position,
                    rowCount: properties["gridProperties"]?["rowCount"]?.intValue,
                    columnCount: properties["gridProperties"]?["columnCount"]?.intValue))
        }
        self.sheets = sheets
        self.json = json
    }

    /// The tab with this title, if any.
    public func sheet(titled title: String) -> Sheet? {
        sheets.first { $0.title == title }
    }
}
