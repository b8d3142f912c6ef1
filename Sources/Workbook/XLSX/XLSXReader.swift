import Foundation
import SheetValues

/// One worksheet as a table: row 1 is the header, `table.rows[i]` is sheet row `i + 2`.
public struct XLSXSheet: Sendable, Hashable {
    public var name: String
    public var table: Table

    public init(name: String, table: Table) {
        self.name = name
        self.table = table
    }

    /// Splits raw rows (`rows[i]` = sheet row `i + 1`) into a header and data rows.
    public init(name: String, rows: [[Cell]]) {
        self.name = name
        let header = rows.first.map { $0.map(\.rawText) } ?? []
        self.table = Table(header: header, rows: Array(rows.dropFirst()))
    }
}

/// One worksheet as raw rows: `rows[i]` is sheet row `i + 1`, header included.
public struct XLSXRawSheet: Sendable, Hashable {
    public var name: String
    public var rows: [[Cell]]

    public init(name: String, rows: [[Cell]]) {
        self.name = name
        self.rows = rows
    }
}

/// The sheets of a workbook as read, with what the caller needs to interpret them.
public struct XLSXWorkbookContents: Sendable {
    public var sheets: [XLSXSheet]
    /// What the workbook holds but the reader left out (a sheet with an empty relationship id).
    public var warnings: [String]
    /// Whether the workbook counts dates from 1904 (Mac Excel's old default).
    public var uses1904: Bool
}

/// Reads XLSX workbooks (Transitional or Strict OOXML) in a streaming pass per part.
public enum XLSXReader {
    /// The workbook's worksheet names in workbook order (chartsheets are left out).
    public static func sheetNames(contentsOf url: URL, limits: XLSXLimits = .default) throws -> [String] {
        let package = try XLSXPackage(url: url, limits: limits)
        return try WorkbookLayout.load(from: package).sheets.filter { $0.part != nil }.map(\.name)
    }

    /// The worksheets named in `sheets` (all when nil), in workbook order, as header + rows.
    ///
    /// Names match case-insensitively, as Excel treats them; a requested name the workbook lacks
    /// is simply absent from the result.
    public static func read(
        contentsOf url: URL, sheets: Set<String>? = nil, limits: XLSXLimits = .default
    ) throws -> [XLSXSheet] {
        try readRows(contentsOf: url, sheets: sheets, limits: limits).map { XLSXSheet(name: $0.name, rows: $0.rows) }
    }

    /// Like `read`, with the warnings about what the workbook holds but cannot be read (a sheet
    /// listed with an empty relationship id), for the caller to pass on.
    public static func readWithWarnings(
        contentsOf url: URL, sheets: Set<String>? = nil, limits: XLSXLimits = .default
    ) throws -> XLSXWorkbookContents {
        let (raw, layout) = try readRowsAndLayout(contentsOf: url, sheets: sheets, limits: limits)
        return XLSXWorkbookContents(
            sheets: raw.map { XLSXSheet(name: $0.name, rows: $0.rows) }, warnings: layout.warnings,
            uses1904: layout.uses1904DateSystem)
    }

    /// Like `read`, with each sheet's rows untouched (row 1 included).
    public static func readRows(
        contentsOf url: URL, sheets: Set<String>? = nil, limits: XLSXLimits = .default
    ) throws -> [XLSXRawSheet] {
        try readRowsAndLayout(contentsOf: url, sheets: sheets, limits: limits).sheets
    }

    static func readRowsAndLayout(
        contentsOf url: URL, sheets: Set<String>?, limits: XLSXLimits
    ) throws -> (sheets: [XLSXRawSheet], layout: WorkbookLayout) {
        let package = try XLSXPackage(url: url, limits: limits)
        let layout = try WorkbookLayout.load(from: package)
        let wanted = sheets.map { Set($0.map { $0.lowercased() }) }
        let chosen = layout.sheets.filter { sheet in
            sheet.part != nil && (wanted?.contains(sheet.name.lowercased()) ?? true)
        }
        guard !chosen.isEmpty else { return ([], layout) }
        let context = try loadContext(package, layout)
        let raw = try chosen.map { sheet in
            guard let part = sheet.part else { return XLSXRawSheet(name: sheet.name, rows: []) }
            guard package.contains(part) else {
                throw XLSXError(
                    .missingPart, file: package.fileName, part: part,
                    "is missing from the package (the workbook lists it as sheet '\(sheet.name)')")
            }
            let handler = WorksheetHandler(context: context)
            try package.parse(part, with: handler)
            return XLSXRawSheet(name: sheet.name, rows: handler.finishedRows())
        }
        return (raw, layout)
    }

    private static func loadContext(_ package: XLSXPackage, _ layout: WorkbookLayout) throws -> WorksheetContext {
        var strings: [String] = []
        if let part = layout.sharedStringsPart, package.contains(part) {
            let handler = SharedStringsHandler()
            try package.parse(part, with: handler)
            strings = handler.strings
        }
        var kinds: [NumberFormatKind] = []
        if let part = layout.stylesPart, package.contains(part) {
            let handler = StylesHandler()
            try package.parse(part, with: handler)
            kinds = handler.kinds
        }
        return WorksheetContext(sharedStrings: strings, styleKinds: kinds, uses1904: layout.uses1904DateSystem)
    }
}
