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
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var start = 1
        var quoted = false
        var iterator = text.makeIterator()
        var pending = iterator.next()
        while let c = pending {
            pending = iterator.next()
            if quoted {
                if c != "\"" {
                    if isLineBreak(c) { line += 1 }
                    field.append(c)
                } else if pending == "\"" {
                    field.append("\"")
                    pending = iterator.next()
                } else {
                    quoted = false
                }
                continue
            }
            if c == "\"" && field.allSatisfy({ $0 == " " }) {
                field = ""
                quoted = true
            } else if c == delimiter {
                fields.append(field)
                field = ""
            } else if isLineBreak(c) {
                fields.append(field)
                records.append(Record(fields: fields, line: start))
                if records.count == limit { return records }
                fields = []
                field = ""
                line += 1
                start = line
            } else {
                field.append(c)
            }
        }
        if !fields.isEmpty || !field.isEmpty {
            fields.append(field)
            records.append(Record(fields: fields, line: start))
        }
        return records
    }

    private static func isLineBreak(_ c: Character) -> Bool { c == "\n" || c == "\r" || c == "\r\n" }
}
