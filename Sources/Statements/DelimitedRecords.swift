/// Splits delimited text (`,`, `;` or tab) into records: quoted fields may hold the delimiter,
/// doubled quotes and line breaks; records end at `\n`, `\r\n` or a lone `\r`. Each record keeps the
/// 1-based line it starts on.
struct DelimitedRecords {
    struct Record {
        var fields: [String]
        var line: Int
    }

    /// The records of `text`, the first `limit` of them at most.
    static func split(_ text: String, delimiter: Character, limit: Int = .max) -> [Record] {
        if let ascii = delimiter.asciiValue, StatementText.scansByBytes(text) {
            return split(Array(text.utf8), delimiter: ascii, limit: limit)
        }
        return split(Array(text), delimiter: delimiter, limit: limit)
    }

    /// The records of a text read by `units` (`TextUnit`).
    static func split<Unit: TextUnit>(_ units: [Unit], delimiter: Unit, limit: Int) -> [Record] {
        let quote = Unit(ascii: 0x22)
        let space = Unit(ascii: 0x20)
        var records: [Record] = []
        var fields: [String] = []
        var field: [Unit] = []
        var line = 1
        var start = 1
        var quoted = false
        var index = 0
        while index < units.count {
            let c = units[index]
            let lineBreak = units.lineBreak(at: index)
            index += lineBreak ?? 1
            if quoted {
                if c != quote {
                    if lineBreak != nil { line += 1 }
                    field += units[(index - (lineBreak ?? 1))..<index]
                } else if index < units.count && units[index] == quote {
                    field.append(quote)
                    index += 1
                } else {
                    quoted = false
                }
                continue
            }
            if c == quote && field.allSatisfy({ $0 == space }) {
                field.removeAll(keepingCapacity: true)
                quoted = true
            } else if c == delimiter {
                fields.append(Unit.text(field))
                field.removeAll(keepingCapacity: true)
            } else if lineBreak != nil {
                fields.append(Unit.text(field))
                records.append(Record(fields: fields, line: start))
                if records.count == limit { return records }
                fields = []
                field.removeAll(keepingCapacity: true)
                line += 1
                start = line
            } else {
                field.append(c)
            }
        }
        if !fields.isEmpty || !field.isEmpty {
            fields.append(Unit.text(field))
            records.append(Record(fields: fields, line: start))
        }
        return records
    }
}
