import SheetValues

/// Appends CSV records to a byte buffer: the shared core of `CSVWriter` and `CSVStreamWriter`.
///
/// A field is quoted only when it must be: it holds a comma, a quote, CR or LF; it is the
/// only field of its record and empty (unquoted it would read back as a blank line); or it
/// opens the file with U+FEFF (unquoted it would read back as a byte order mark).
struct CSVRecordEncoder {
    private static let quote: UInt8 = 0x22
    private static let comma: UInt8 = 0x2C
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A

    private let lineEnding: [UInt8]
    private(set) var recordCount = 0
    private var lastRecordWasBlank = false

    init(lineEnding: CSVLineEnding) {
        self.lineEnding = lineEnding.bytes
    }

    static func appendBOM(into out: inout [UInt8]) {
        out.append(contentsOf: [0xEF, 0xBB, 0xBF])
    }

    mutating func appendRecord(_ fields: [String], into out: inout [UInt8]) {
        appendRecord(fields, text: { $0 }, into: &out)
    }

    mutating func appendRecord(_ cells: [Cell], into out: inout [UInt8]) {
        appendRecord(cells, text: { $0.rawText }, into: &out)
    }

    /// Appends a record as the bytes it was read from (quoting as the person or program wrote it).
    mutating func appendRecord(bytes: ArraySlice<UInt8>, isBlank: Bool, into out: inout [UInt8]) {
        if recordCount > 0 { out.append(contentsOf: lineEnding) }
        recordCount += 1
        lastRecordWasBlank = isBlank
        out.append(contentsOf: bytes)
    }

    /// Counts `count` records that went out without this encoder, each with the line ending before
    /// it: rows copied as read (`CSVPatch`).
    mutating func appendedRecords(_ count: Int, lastIsBlank: Bool) {
        guard count > 0 else { return }
        recordCount += count
        lastRecordWasBlank = lastIsBlank
    }

    /// Ends the output: a final line ending when asked for, and always after a last blank
    /// row, which would otherwise vanish (a lone blank header is the empty file and needs none).
    mutating func finish(endsWithNewline: Bool, into out: inout [UInt8]) {
        if endsWithNewline || (recordCount > 1 && lastRecordWasBlank) {
            out.append(contentsOf: lineEnding)
        }
    }

    private mutating func appendRecord<Field>(
        _ fields: [Field], text: (Field) -> String, into out: inout [UInt8]
    ) {
        if recordCount > 0 { out.append(contentsOf: lineEnding) }
        let isFirstRecord = recordCount == 0
        recordCount += 1
        lastRecordWasBlank = fields.isEmpty
        let alone = fields.count == 1
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(Self.comma) }
            appendField(text(field), mustQuoteEmpty: alone, isFileStart: isFirstRecord && index == 0, into: &out)
        }
    }

    private func appendField(_ text: String, mustQuoteEmpty: Bool, isFileStart: Bool, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var needsQuotes = bytes.isEmpty ? mustQuoteEmpty : false
            if isFileStart && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                needsQuotes = true
            }
            if !needsQuotes {
                for byte in bytes where byte == Self.comma || byte == Self.quote || byte == Self.cr || byte == Self.lf {
                    needsQuotes = true
                    break
                }
            }
            guard needsQuotes else {
                out.append(contentsOf: bytes)
                return
            }
            out.append(Self.quote)
            for byte in bytes {
                out.append(byte)
                if byte == Self.quote { out.append(Self.quote) }
            }
            out.append(Self.quote)
        }
    }
}
