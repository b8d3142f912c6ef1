import Foundation
import SheetValues

/// Writes a `CSVFile` back as bytes, keeping its BOM, line endings and blank lines, so that
/// `CSVReader.parse(CSVWriter.encode(file))` gives `file` back. Cells are written with
/// `Cell.rawText`.
public enum CSVWriter {
    /// The whole file as bytes.
    public static func encode(_ file: CSVFile) -> [UInt8] {
        var out: [UInt8] = []
        var encoder = CSVRecordEncoder(lineEnding: file.lineEnding)
        if file.hasBOM { CSVRecordEncoder.appendBOM(into: &out) }
        encoder.appendRecord(file.table.header, into: &out)
        for row in file.table.rows {
            encoder.appendRecord(row, into: &out)
        }
        encoder.finish(endsWithNewline: file.endsWithNewline, into: &out)
        return out
    }

    /// `old` (as read) with `changes` carried out, as one byte array; see `CSVPatch`. Nil when `old`
    /// kept no bytes or the header changes: the caller encodes the whole table.
    public static func encode(patching old: CSVFile, with changes: TableChanges) -> [UInt8]? {
        guard let patch = CSVPatch(old, changes) else { return nil }
        var out: [UInt8] = []
        patch.write(chunkSize: Int.max) { out.append(contentsOf: $0) }
        return out
    }

    /// Streams the file to `sink` in chunks of about `chunkSize` bytes, for files too big to
    /// hold twice in memory.
    public static func write(
        _ file: CSVFile,
        chunkSize: Int = CSVStreamWriter.defaultChunkSize,
        to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        var writer = CSVStreamWriter(
            hasBOM: file.hasBOM, lineEnding: file.lineEnding, chunkSize: chunkSize, sink: sink)
        try writer.writeRecord(file.table.header)
        for row in file.table.rows {
            try writer.writeRow(row)
        }
        try writer.finish(endsWithNewline: file.endsWithNewline)
    }

    /// Streams the file to an open file handle (for instance the temporary file of
    /// `AtomicFile.replace`).
    public static func write(_ file: CSVFile, to handle: FileHandle) throws {
        try write(file) { chunk in try handle.write(contentsOf: chunk) }
    }
}

/// Writes CSV records one at a time, handing bytes to a sink in chunks.
///
/// The first record written is the header. Call `finish(endsWithNewline:)` once at the end;
/// records written after it are refused by a precondition.
public struct CSVStreamWriter {
    public static let defaultChunkSize = 1 << 16

    private var encoder: CSVRecordEncoder
    private var buffer: [UInt8] = []
    private let chunkSize: Int
    private let sink: ([UInt8]) throws -> Void
    private var finished = false

    public init(
        hasBOM: Bool = false,
        lineEnding: CSVLineEnding = .lf,
        chunkSize: Int = CSVStreamWriter.defaultChunkSize,
        sink: @escaping ([UInt8]) throws -> Void
    ) {
        self.encoder = CSVRecordEncoder(lineEnding: lineEnding)
        self.chunkSize = max(chunkSize, 1)
        self.sink = sink
        buffer.reserveCapacity(min(self.chunkSize, 1 << 20) + 256)
        if hasBOM { CSVRecordEncoder.appendBOM(into: &buffer) }
    }

    /// Writes one record of strings (typically the header).
    public mutating func writeRecord(_ fields: [String]) throws {
        precondition(!finished, "CSVStreamWriter used after finish")
        encoder.appendRecord(fields, into: &buffer)
        try flushIfFull()
    }

    /// Writes one row of cells; an empty array writes a blank line.
    public mutating func writeRow(_ cells: [Cell]) throws {
        precondition(!finished, "CSVStreamWriter used after finish")
        encoder.appendRecord(cells, into: &buffer)
        try flushIfFull()
    }

    /// Writes the final line ending (if any) and hands over the remaining bytes.
    public mutating func finish(endsWithNewline: Bool) throws {
        precondition(!finished, "CSVStreamWriter finished twice")
        finished = true
        encoder.finish(endsWithNewline: endsWithNewline, into: &buffer)
        if !buffer.isEmpty { try sink(buffer) }
        buffer.removeAll()
    }

    private mutating func flushIfFull() throws {
        guard buffer.count >= chunkSize else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
