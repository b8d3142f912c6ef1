import Foundation
import SheetValues

/// The one-pass byte loop behind `CSVReader`.
///
/// It works on bytes, not `Character`s, because Swift fuses `\r\n` into one grapheme and a
/// rewrite must reproduce the line endings exactly. Fields are sliced from the input and
/// decoded once; only fields holding bytes ≥ 0x80 pay for UTF-8 validation. Separators and
/// quotes are ASCII and never occur inside a multi-byte sequence, so validating field by
/// field is the same as validating the whole file.
struct CSVParser {
    private static let cr = CSVFieldScanner.cr
    private static let lf = CSVFieldScanner.lf
    private static let comma = CSVFieldScanner.comma

    private let p: UnsafeBufferPointer<UInt8>
    private let source: String
    /// The bytes `p` points into, when the caller owns them as an array: the rows are then kept as
    /// `CSVRows` (decoded when asked for) instead of cells.
    private let owner: [UInt8]?
    private var i = 0
    /// The 1-based record number being read (the header is record 1).
    private var record = 1
    /// Reused for fields that need unescaping, so they cost no allocation each.
    private var scratch: [UInt8] = []
    /// The header's width once read (0 while reading it).
    private var headerWidth = 0
    /// Data rows whose quoting looks broken, by index, with what is wrong.
    private var damage: [Int: String] = [:]
    /// The cells of the data row being read, for the observer: a field as it is points into `p`, one
    /// that had to be unescaped is a placeholder until the row ends (`unescapedCells`).
    private var rowCells: [UnsafeBufferPointer<UInt8>] = []
    /// The row's unescaped fields, one after another, and which of `rowCells` each one is.
    private var unescaped: [UInt8] = []
    private var unescapedCells: [(cell: Int, bytes: Range<Int>)] = []
    /// The data row a stray carriage return cut short: the next row is its rest.
    private var cutByCR: Int?

    init(bytes: UnsafeBufferPointer<UInt8>, source: String, owner: [UInt8]? = nil) {
        self.p = bytes
        self.source = source
        self.owner = owner
    }

    /// Reads the file. `observer`, given the header, makes the observer that sees every data row as it
    /// is read, for a parser that keeps the rows as bytes: what a sync would otherwise visit every
    /// row's bytes again for (its row hashes and keys).
    mutating func run(observer makeObserver: (([String]) -> (any RowObserver)?)? = nil) throws -> CSVFile {
        let n = p.count
        var hasBOM = false
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF {
            hasBOM = true
            i = 3
        }
        // NUL bytes cannot reach the store intact (SQLite's C strings end at them), so a row holding
        // one is refused; one scan of the whole file keeps that check off the common path.
        let hasNUL = p.baseAddress.map { memchr($0, 0, n) != nil } ?? false
        var read = Records()
        while i < n && read.header == nil { try readRecord(into: &read, hasNUL: hasNUL) }
        if owner != nil, let header = read.header { read.observer = makeObserver?(header) }
        if !hasNUL, let header = read.header, let parts = partsRead(header: header, lineEnding: read.lineEnding, observer: read.observer) {
            for part in parts {
                read.ranges += part.ranges
                if let seen = part.observer { read.observer?.append(part: seen) }
                read.dataRows += part.ranges.count
                if let ending = part.lineEnding, ending != (read.lineEnding ?? ending) { read.mixedEndings = true }
                if read.lineEnding == nil { read.lineEnding = part.lineEnding }
                read.mixedEndings = read.mixedEndings || part.mixedEndings
                read.endsWithNewline = part.endsWithNewline
            }
            i = n
        }
        while i < n { try readRecord(into: &read, hasNUL: hasNUL) }
        var table: Table
        if let owner, !read.ranges.isEmpty {
            table = Table(
                header: read.header ?? [],
                source: CSVRows(bytes: owner, records: read.ranges.dropFirst(), width: headerWidth, observed: read.observer.take())
            )
        } else {
            table = Table(header: read.header ?? [], rows: read.rows)
        }
        table.damagedRows = damage
        table.refusedRows = read.refused.mapValues(\.fieldProblem)
        var file = CSVFile(
            table: table,
            hasBOM: hasBOM,
            lineEnding: read.lineEnding ?? .lf,
            endsWithNewline: read.endsWithNewline
        )
        file.recordRanges = read.ranges
        file.lineEndingsUniform = !read.mixedEndings
        return file
    }

    /// What reading records gathers.
    private struct Records {
        var header: [String]?
        /// The data rows' cells, when the parser keeps no bytes.
        var rows: [[Cell]] = []
        var dataRows = 0
        /// Every record's range, the header's first; line endings excluded.
        var ranges: [Range<Int>] = []
        var lineEnding: CSVLineEnding?
        /// A separator other than `lineEnding` was found.
        var mixedEndings = false
        /// What sees each data row as it is read, when the parser has one.
        var observer: (any RowObserver)?
        var endsWithNewline = false
        var refused: [Int: CSVError] = [:]
    }

    /// Reads the record at `i` and the line ending after it.
    ///
    /// The hot loop of CSV reading: what is rare (a NUL byte, a stray carriage return) is worded in
    /// functions kept out of line, so this one's code stays as small as the loop itself.
    private mutating func readRecord(into read: inout Records, hasNUL: Bool) throws {
        let n = p.count
        let recordStart = i
        let first = p[i]
        var cells: [Cell] = []
        // Cells are made for the header, and for every row only when there are no bytes to keep.
        let keepsCells = owner == nil
        let makesCells = keepsCells || read.header == nil
        let observing = read.observer != nil
        if first != Self.cr && first != Self.lf {
            var column = 0
            while true {
                let start = i
                let span = try field()
                column += 1
                if makesCells { cells.append(cell(span)) }
                if observing { note(span) }
                if hasNUL, let header = read.header, read.refused[read.dataRows] == nil {
                    refuseNUL(in: start..<i, column: column, header: header, into: &read)
                }
                if i < n && p[i] == Self.comma {
                    i += 1
                    continue
                }
                break
            }
        }
        read.ranges.append(recordStart..<i)
        if observing { report(into: &read) }
        let index = read.dataRows
        if read.header != nil, let cut = cutByCR { noteRestOfCutRow(index, cut: cut) }
        if i < n {
            let ending = consumeLineEnding()
            if read.lineEnding == nil { read.lineEnding = ending } else if ending != read.lineEnding { read.mixedEndings = true }
            read.endsWithNewline = true
            // A lone CR in a file whose lines end with LF or CRLF, with more of the line after it, is a stray
            // character inside a cell (pasted from another program), not the end of the row: read as one, it
            // cuts the row short, and the store would take the cut row. Both parts are held back instead.
            // (CR CR LF, which some writers put at every line end, has nothing after the CR but the line end.)
            if ending == .cr, read.header != nil, read.lineEnding != .cr, i < n, p[i] != Self.cr, p[i] != Self.lf {
                noteStrayCR(index, recordStart: recordStart)
            }
        } else {
            read.endsWithNewline = false
        }
        if read.header == nil {
            read.header = cells.map(\.rawText)
            headerWidth = cells.count
        } else {
            if keepsCells { read.rows.append(cells) }
            read.dataRows += 1
        }
        record += 1
    }

    /// Refuses the data row being read when the field in `range` holds a NUL byte.
    @inline(never)
    private func refuseNUL(in range: Range<Int>, column: Int, header: [String], into read: inout Records) {
        guard let nul = firstNUL(in: range) else { return }
        let name = column <= header.count ? header[column - 1] : nil
        read.refused[read.dataRows] = error(.nulByte(column: column, header: name), at: nul)
    }

    /// Holds back data row `index`, the rest of row `cut` that a stray carriage return cut in two.
    @inline(never)
    private mutating func noteRestOfCutRow(_ index: Int, cut: Int) {
        damage[index] =
            "this row is the rest of row \(Table.sheetRowNumber(ofDataRow: cut)), which a carriage return (\\r) on its "
            + "own cut in two; remove that character and the two are one row again"
        cutByCR = nil
    }

    /// Holds back data row `index`, which a stray carriage return inside it ended early.
    @inline(never)
    private mutating func noteStrayCR(_ index: Int, recordStart: Int) {
        damage[index] =
            "a carriage return (\\r) on its own inside this row (line \(line(at: recordStart))) ends it early, and the rest "
            + "of it reads as the next row; remove that character (many editors show it as ^M)"
        cutByCR = index
    }

    /// The records from `i` to the end, read side by side in parts cut after a line feed
    /// (`RowParts.byteRanges`); nil when the file is small, or any part does not end exactly where the
    /// next begins (a quoted field holds the line feed a cut was made after) or finds anything to
    /// report: the caller then reads on from `i` in one pass, which words every problem with its row
    /// and line number as it must.
    ///
    /// `lineEnding`: the file's, as the header's line ended: each part judges its line ends by it.
    /// `observer`: the one the rows are read for; each part is seen by a `fresh()` one of its own.
    private func partsRead(header: [String], lineEnding: CSVLineEnding?, observer: (any RowObserver)?) -> [PartRecords]? {
        guard let owner, let base = p.baseAddress else { return nil }
        let cuts = RowParts.byteRanges(from: i, to: p.count) { at in
            memchr(base + at, Int32(Self.lf), p.count - at).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) + 1 }
        }
        guard cuts.count > 1 else { return nil }
        let (source, width, record) = (source, headerWidth, record)
        let parts = RowParts.run(cuts.count) { k -> PartRecords? in
            owner.withUnsafeBufferPointer { p in
                var parser = CSVParser(bytes: p, source: source, owner: owner)
                (parser.i, parser.headerWidth, parser.record) = (cuts[k].lowerBound, width, record)
                var read = Records(header: header, lineEnding: lineEnding, observer: observer?.fresh())
                let end = cuts[k].upperBound
                while parser.i < end {
                    guard (try? parser.readRecord(into: &read, hasNUL: false)) != nil else { return nil }
                }
                guard parser.i == end, parser.damage.isEmpty else { return nil }
                return PartRecords(
                    ranges: read.ranges, observer: read.observer, lineEnding: read.lineEnding,
                    mixedEndings: read.mixedEndings, endsWithNewline: read.endsWithNewline)
            }
        }
        let read = parts.compactMap { $0 }
        return read.count == cuts.count ? read : nil
    }

    /// The records of one part read side by side.
    private struct PartRecords: Sendable {
        var ranges: [Range<Int>]
        var observer: (any RowObserver)?
        var lineEnding: CSVLineEnding?
        var mixedEndings: Bool
        var endsWithNewline: Bool
    }

    /// The offset of the first NUL byte in `range`, if any.
    private func firstNUL(in range: Range<Int>) -> Int? {
        guard let base = p.baseAddress, !range.isEmpty,
            let hit = memchr(base + range.lowerBound, 0, range.count)
        else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// Reads one field starting at `i`, checks it (closing quote, UTF-8, rows swallowed by a quote)
    /// and leaves `i` on the comma, line ending or end. Like Python's csv module, bytes after a
    /// closing quote (up to the next separator) are kept literally rather than refused.
    private mutating func field() throws -> CSVFieldSpan {
        let start = i
        let (span, end) = CSVFieldScanner.scan(p, from: i)
        if span.isQuoted {
            guard span.isClosed else { throw error(.unterminatedQuote, at: start) }
            noteSwallowedRows(span.content)
        }
        i = end
        if span.high >= 0x80 { try validate(start..<end) }
        return span
    }

    /// The field's decoded bytes into the row the observer is shown at its end.
    private mutating func note(_ span: CSVFieldSpan) {
        if span.isVerbatim {
            rowCells.append(UnsafeBufferPointer(rebasing: p[span.content]))
            return
        }
        noteUnescaped(span)
    }

    /// A field with doubled quotes or bytes after its closing quote: unescaped into `unescaped`, which
    /// may grow (and move) before the row ends, so it is pointed at only then (`report(into:)`).
    @inline(never)
    private mutating func noteUnescaped(_ span: CSVFieldSpan) {
        var bytes: [UInt8] = []
        swap(&bytes, &unescaped)
        let start = bytes.count
        CSVFieldScanner.decode(span, p, scratch: &scratch) { bytes.append(contentsOf: $0) }
        unescapedCells.append((rowCells.count, start..<bytes.count))
        swap(&bytes, &unescaped)
        rowCells.append(UnsafeBufferPointer(start: nil, count: 0))
    }

    /// Shows the observer the data row just read, and empties the row's cells for the next.
    private mutating func report(into read: inout Records) {
        if unescapedCells.isEmpty {
            rowCells.withUnsafeBufferPointer { read.observer?.row($0) }
        } else {
            unescaped.withUnsafeBufferPointer { bytes in
                for (cell, range) in unescapedCells { rowCells[cell] = UnsafeBufferPointer(rebasing: bytes[range]) }
                rowCells.withUnsafeBufferPointer { read.observer?.row($0) }
            }
            unescaped.removeAll(keepingCapacity: true)
            unescapedCells.removeAll(keepingCapacity: true)
        }
        rowCells.removeAll(keepingCapacity: true)
    }

    private mutating func cell(_ span: CSVFieldSpan) -> Cell {
        var made = Cell.empty
        CSVFieldScanner.decode(span, p, scratch: &scratch) { made = CSVFieldScanner.cell($0) }
        return made
    }

    /// A quoted field may hold line breaks (a note on two lines), but one whose lines look like rows
    /// of their own (many commas) is a stray or missing quote swallowing the rows that follow: the
    /// row is marked damaged, so the tab reader rejects it and nothing of the tab is deleted.
    private mutating func noteSwallowedRows(_ content: Range<Int>) {
        guard headerWidth >= 4 else { return }
        let threshold = max(3, headerWidth / 2)
        var lines = 0
        var rowLike = 0
        var commas = 0
        var k = content.lowerBound
        while k < content.upperBound {
            let c = p[k]
            if c == Self.lf || c == Self.cr {
                if lines > 0 && commas >= threshold { rowLike += 1 }
                if c == Self.cr && k + 1 < content.upperBound && p[k + 1] == Self.lf { k += 1 }
                lines += 1
                commas = 0
            } else if c == Self.comma {
                commas += 1
            }
            k += 1
        }
        if lines > 0 && commas >= threshold { rowLike += 1 }
        guard rowLike > 0 else { return }
        damage[record - 2] =
            "a quoted field that opens in this row runs over \(lines) more line(s), \(rowLike) of which look like rows "
            + "of their own (a '\"' is probably missing or extra in this row); those rows are hidden inside it until the quote is fixed"
    }

    private mutating func consumeLineEnding() -> CSVLineEnding {
        if p[i] == Self.lf {
            i += 1
            return .lf
        }
        if i + 1 < p.count && p[i + 1] == Self.lf {
            i += 2
            return .crlf
        }
        i += 1
        return .cr
    }

    private func validate(_ range: Range<Int>) throws {
        let bytes = UnsafeBufferPointer(rebasing: p[range])
        if let bad = UTF8Validation.firstInvalidIndex(in: bytes) {
            throw error(.notUTF8, at: range.lowerBound + bad)
        }
    }

    private func error(_ problem: CSVError.Problem, at offset: Int) -> CSVError {
        CSVError(file: source, row: record, line: line(at: offset), byteOffset: offset, problem: problem)
    }

    /// The 1-based physical line holding `offset`; only computed on the error path.
    private func line(at offset: Int) -> Int {
        var line = 1
        var k = 0
        while k < offset {
            if p[k] == Self.lf || (p[k] == Self.cr && (k + 1 >= p.count || p[k + 1] != Self.lf)) {
                line += 1
            }
            k += 1
        }
        return line
    }
}

extension RowObserver {
    /// `append(_:)` of a part's observer known only as `any RowObserver`: one of this one's `fresh()`.
    fileprivate mutating func append(part: any RowObserver) {
        if let part = part as? Self { append(part) }
    }
}
