/// A parsed `files.list` `q` expression.
indirect enum DriveQuery: Sendable, Equatable {
    case and(DriveQuery, DriveQuery)
    case or(DriveQuery, DriveQuery)
    case not(DriveQuery)
    /// `name = 'x'`, `mimeType != 'x'`, `name contains 'x'`, `trashed = false`, `starred = true`.
    case compare(field: String, op: String, value: String)
    /// `'id' in parents`.
    case inParents(String)
    /// `appProperties has { key='k' and value='v' }` (and `properties`).
    case has(field: String, key: String, value: String)

    func matches(_ file: EmulatedDriveFile) -> Bool {
        switch self {
        case .and(let a, let b): return a.matches(file) && b.matches(file)
        case .or(let a, let b): return a.matches(file) || b.matches(file)
        case .not(let a): return !a.matches(file)
        case .inParents(let id): return file.parents.contains(id == "root" ? DriveFiles.rootFolderId : id)
        case .has(let field, let key, let value):
            return (field == "appProperties" ? file.appProperties : file.properties)[key] == value
        case .compare(let field, let op, let value):
            let actual: String
            switch field {
            case "name": actual = file.name
            case "mimeType": actual = file.mimeType
            case "trashed": actual = file.trashed ? "true" : "false"
            case "starred": actual = "false"
            case "fullText": actual = file.name + " " + (file.description ?? "")
            case "modifiedTime": actual = EmulatedDriveFile.timestamp(file.modifiedTime)
            case "createdTime": actual = EmulatedDriveFile.timestamp(file.createdTime)
            default: return false
            }
            switch op {
            case "=": return actual == value
            case "!=": return actual != value
            case "contains": return actual.lowercased().contains(value.lowercased())
            case "<": return actual < value
            case "<=": return actual <= value
            case ">": return actual > value
            case ">=": return actual >= value
            default: return false
            }
        }
    }
}

/// Parses Drive's query language (the subset sheetsync and people use).
struct DriveQueryParser {
    private var tokens: [String]
    private var index = 0

    static func parse(_ text: String) throws(GoogleAPIError) -> DriveQuery {
        var parser = DriveQueryParser(tokens: try tokenize(text))
        let query = try parser.parseOr()
        guard parser.index == parser.tokens.count else { throw invalid(text) }
        return query
    }

    static func invalid(_ text: String) -> GoogleAPIError {
        var error = GoogleAPIError.invalidArgument("Invalid Value")
        error.reason = "invalid"
        error.message = "Invalid Value: q = \(text)"
        return error
    }

    private static func tokenize(_ text: String) throws(GoogleAPIError) -> [String] {
        var tokens: [String] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "'" {
                var literal = "'"
                i += 1
                while i < chars.count, chars[i] != "'" {
                    if chars[i] == "\\", i + 1 < chars.count { i += 1 }
                    literal.append(chars[i])
                    i += 1
                }
                guard i < chars.count else { throw invalid(text) }
                tokens.append(literal + "'")
                i += 1
            } else if "(){}".contains(c) {
                tokens.append(String(c))
                i += 1
            } else if "=!<>".contains(c) {
                var op = String(c)
                if i + 1 < chars.count, chars[i + 1] == "=" { op.append("="); i += 1 }
                tokens.append(op)
                i += 1
            } else {
                var word = ""
                while i < chars.count, !chars[i].isWhitespace, !"(){}=!<>'".contains(chars[i]) { word.append(chars[i]); i += 1 }
                tokens.append(word)
            }
        }
        return tokens
    }

    private var text: String { tokens.joined(separator: " ") }

    private mutating func next() throws(GoogleAPIError) -> String {
        guard index < tokens.count else { throw Self.invalid(text) }
        defer { index += 1 }
        return tokens[index]
    }

    private func peek() -> String? { index < tokens.count ? tokens[index] : nil }

    private mutating func literal() throws(GoogleAPIError) -> String {
        let token = try next()
        if token.hasPrefix("'") { return String(token.dropFirst().dropLast()) }
        guard ["true", "false"].contains(token) || token.allSatisfy({ $0.isNumber }) else { throw Self.invalid(text) }
        return token
    }

    private mutating func parseOr() throws(GoogleAPIError) -> DriveQuery {
        var left = try parseAnd()
        while peek()?.lowercased() == "or" { index += 1; left = .or(left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws(GoogleAPIError) -> DriveQuery {
        var left = try parseTerm()
        while peek()?.lowercased() == "and" { index += 1; left = .and(left, try parseTerm()) }
        return left
    }

    private mutating func parseTerm() throws(GoogleAPIError) -> DriveQuery {
        let token = try next()
        if token.lowercased() == "not" { return .not(try parseTerm()) }
        if token == "(" {
            let inner = try parseOr()
            guard try next() == ")" else { throw Self.invalid(text) }
            return inner
        }
        if token.hasPrefix("'") {
            guard try next() == "in", try next() == "parents" else { throw Self.invalid(text) }
            return .inParents(String(token.dropFirst().dropLast()))
        }
        let op = try next()
        if op == "has", ["appProperties", "properties"].contains(token) {
            guard try next() == "{", try next() == "key", try next() == "=" else { throw Self.invalid(text) }
            let key = try literal()
            guard try next() == "and", try next() == "value", try next() == "=" else { throw Self.invalid(text) }
            let value = try literal()
            guard try next() == "}" else { throw Self.invalid(text) }
            return .has(field: token, key: key, value: value)
        }
        guard ["=", "!=", "<", "<=", ">", ">=", "contains"].contains(op),
            ["name", "mimeType", "trashed", "starred", "fullText", "modifiedTime", "createdTime"].contains(token)
        else { throw Self.invalid(text) }
        return .compare(field: token, op: op, value: try literal())
    }
}
