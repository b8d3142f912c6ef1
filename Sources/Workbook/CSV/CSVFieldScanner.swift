import SheetValues
import Synchronization

/// Where one CSV field lies in the bytes: the one scan shared by the parser (which validates the
/// whole file once) and `CSVRows` (which decodes a row again when it is asked for).
struct CSVFieldSpan {
    /// Between the quotes of a quoted field (doubled quotes still doubled); the field itself otherwise.
    var content: Range<Int>
    /// Bytes after a quoted field's closing quote, up to the separator (kept literally, like Python's csv).
    var tail: Range<Int>
    var isQuoted: Bool
    /// A quoted field holds `""` (an escaped quote).
    var hasDoubledQuotes: Bool
    /// False for a quoted field whose closing quote never comes.
    var isClosed: Bool
    /// The OR of every byte of the field: ≥ 0x80 means it needs UTF-8 validation.
    var high: UInt8

    /// Whether the decoded field is its content bytes as they are (no quote to collapse, no tail).
    var isVerbatim: Bool { !hasDoubledQuotes && tail.isEmpty }
}

enum CSVFieldScanner {
    static let quote: UInt8 = 0x22
    static let comma: UInt8 = 0x2C
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A

    /// The field starting at `start`, and where it ends (on the comma, line ending or end of input).
    static func scan(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (span: CSVFieldSpan, end: Int) {
        let n = p.count
        var i = start
        var high: UInt8 = 0
        guard i < n, p[i] == quote else {
            while i < n {
                let c = p[i]
                if c == comma || c == cr || c == lf { break }
                high |= c
                i += 1
            }
            let span = CSVFieldSpan(content: start..<i, tail: i..<i, isQuoted: false, hasDoubledQuotes: false, isClosed: true, high: high)
            return (span, i)
        }
        i += 1
        let contentStart = i
        var doubled = false
        while true {
            while i < n {
                let c = p[i]
                if c == quote { break }
                high |= c
                i += 1
            }
            guard i < n else {
                let span = CSVFieldSpan(
                    content: contentStart..<n, tail: n..<n, isQuoted: true, hasDoubledQuotes: doubled, isClosed: false, high: high)
                return (span, n)
            }
            if i + 1 < n && p[i + 1] == quote {
                doubled = true
                i += 2
                continue
            }
            break
        }
        let contentEnd = i
        i += 1
        let tailStart = i
        while i < n {
            let c = p[i]
            if c == comma || c == cr || c == lf { break }
            high |= c
            i += 1
        }
        let span = CSVFieldSpan(
            content: contentStart..<contentEnd, tail: tailStart..<i, isQuoted: true, hasDoubledQuotes: doubled, isClosed: true,
            high: high)
        return (span, i)
    }

    /// Calls `body` with each field of the record `range` as its decoded bytes (empty for an empty
    /// field); a record of no bytes (a blank line) has no fields. `scratch` holds unescaped fields.
    /// `body` returns false to stop early.
    static func forEachField(
        _ p: UnsafeBufferPointer<UInt8>, record range: Range<Int>, scratch: inout [UInt8],
        _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        guard !range.isEmpty else { return }
        var i = range.lowerBound
        while true {
            let (span, end) = scan(p, from: i)
            var goOn = true
            decode(span, p, scratch: &scratch) { goOn = body($0) }
            guard goOn else { return }
            i = end
            guard i < range.upperBound, p[i] == comma else { return }
            i += 1
        }
    }

    /// The field's text as a cell: `.empty` when it decodes to no bytes.
    static func cell(_ bytes: UnsafeBufferPointer<UInt8>) -> Cell {
        bytes.isEmpty ? .empty : .text(String(decoding: bytes, as: UTF8.self))
    }

    /// Calls `body` with the field's decoded bytes: its content as it is, or unescaped into `scratch`.
    static func decode(
        _ span: CSVFieldSpan, _ p: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        if span.isVerbatim {
            body(UnsafeBufferPointer(rebasing: p[span.content]))
            return
        }
        scratch.removeAll(keepingCapacity: true)
        var k = span.content.lowerBound
        while k < span.content.upperBound {
            scratch.append(p[k])
            // Inside the quotes every quote is doubled, so skip the second of each pair.
            k += p[k] == quote ? 2 : 1
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[span.tail]))
        scratch.withUnsafeBufferPointer { body($0) }
    }
}

/// A CSV file's data rows kept as the bytes read and each record's range: a row becomes cells only
/// when asked for, so reading a big file holds its bytes, not an array of strings per row.
final class CSVRows: RowSource {
    private let bytes: [UInt8]
    /// Data records only (the header's range is not here); line endings excluded. A slice of the
    /// `CSVFile.recordRanges` the parser made: the ranges are kept once, not copied.
    private let records: ArraySlice<Range<Int>>
    /// The header's width: what a row's cells reserve room for.
    private let width: Int
    /// What the reader's observer saw of the rows while reading, until someone takes it.
    private let observed: Mutex<(any RowObserver)?>

    init(bytes: [UInt8], records: ArraySlice<Range<Int>>, width: Int, observed: (any RowObserver)? = nil) {
        self.bytes = bytes
        self.records = records
        self.width = width
        self.observed = Mutex(observed)
    }

    var count: Int { records.count }

    func takeObservation() -> (any RowObserver)? {
        observed.withLock { kept in
            defer { kept = nil }; return kept
        }
    }

    func row(_ index: Int) -> [Cell] {
        var cells: [Cell] = []
        cells.reserveCapacity(width)
        visit(index) {
            cells.append(CSVFieldScanner.cell($0))
            return true
        }
        return cells
    }

    func cell(row index: Int, column: Int) -> Cell {
        var found = Cell.empty
        var at = 0
        visit(index) { bytes in
            guard at == column else {
                at += 1
                return true
            }
            found = CSVFieldScanner.cell(bytes)
            return false
        }
        return found
    }

    func visitCells(rows: Range<Int>, cell: (UnsafeBufferPointer<UInt8>) -> Bool, endOfRow: (Int) -> Bool) -> Bool {
        var scratch: [UInt8] = []
        bytes.withUnsafeBufferPointer { p in
            for index in rows {
                CSVFieldScanner.forEachField(p, record: records[records.startIndex + index], scratch: &scratch, cell)
                guard endOfRow(index) else { return }
            }
        }
        return true
    }

    private func visit(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var scratch: [UInt8] = []
        bytes.withUnsafeBufferPointer { p in
            CSVFieldScanner.forEachField(p, record: records[records.startIndex + index], scratch: &scratch, body)
        }
    }
}
