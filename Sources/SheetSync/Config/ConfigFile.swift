import Foundation
import GoogleAPI
import Interchange
import SheetSyncCore

/// Reads a config file strictly and says where it is wrong: a syntax error by line and column
/// (strict RFC 8259: no trailing commas, no comments, no key twice), an unknown key by name with the nearest known
/// one, a wrong type by its key path. Keys starting with `_` are notes and ignored
/// (`config.example.json` uses `_comment`).
enum ConfigFile {
    static let topKeys = ["store", "remote", "timezone", "backups", "backupsToKeep", "import"]
    static let remoteKeys = ["type", "path", "spreadsheetId", "credentials", "endpoint", "retryBudgetSeconds", "maxRequestBytes"]
    static let remoteTypes = ["csv", "xlsx", "google"]

    /// The config as written, or a configuration error naming every problem found.
    static func read(_ bytes: [UInt8], source: URL) throws -> RawConfig {
        let document: JSONValue
        do {
            document = try JSONValue.parseRejectingDuplicateKeys(bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            throw SheetSyncError.configuration(
                "config file \(source.path): line \(line), column \(column): \(error.message)\(syntaxHint(error, bytes))",
                hint: "the config must be strict JSON: keys and strings in double quotes, no trailing commas, no comments")
        }
        var reader = Reader()
        let raw = reader.config(document)
        guard let raw, reader.problems.isEmpty else {
            let problems = reader.problems
            let text = problems.count == 1 ? problems[0] : problems.joined(separator: "; ")
            throw SheetSyncError.configuration(
                "config file \(source.path): \(text)", hint: "config.example.json in the sheetsync repository documents every key")
        }
        return raw
    }

    /// What the most common slip looks like: a comma before a closing bracket.
    private static func syntaxHint(_ error: JSONParseError, _ bytes: [UInt8]) -> String {
        guard error.offset < bytes.count, bytes[error.offset] == UInt8(ascii: "}") || bytes[error.offset] == UInt8(ascii: "]")
        else { return "" }
        let before = bytes[..<error.offset].last { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return before == UInt8(ascii: ",")
            ? " (a trailing comma before '\(UnicodeScalar(bytes[error.offset]))' is not allowed in JSON)" : ""
    }

    /// Walks the document, collecting every problem rather than stopping at the first.
    struct Reader {
        var problems: [String] = []

        mutating func config(_ document: JSONValue) -> RawConfig? {
            guard let top = object(document, path: nil, known: ConfigFile.topKeys) else { return nil }
            let store = string(top, "store", path: "store", required: "the SQLite store's path, e.g. \"ledger.sqlite\"")
            if store?.isEmpty == true { problems.append("store: empty; expected the SQLite store's path, e.g. \"ledger.sqlite\"") }
            var remote: RawConfig.Remote?
            if let value = top["remote"] {
                remote = self.remote(value)
            } else {
                problems.append("missing key 'remote' (the workbook, e.g. {\"type\": \"csv\", \"path\": \"workbook\"})")
            }
            let timezone = string(top, "timezone", path: "timezone")
            var backups = integer(top, "backups", path: "backups", minimum: 0)
            if let alias = integer(top, "backupsToKeep", path: "backupsToKeep", minimum: 0) {
                if backups != nil { problems.append("'backups' and 'backupsToKeep' name the same setting; keep one") }
                backups = alias
            }
            let importing = top["import"].map { importSettings($0) }
            guard let store, !store.isEmpty, let remote else { return nil }
            return RawConfig(store: store, remote: remote, timezone: timezone, backups: backups, importing: importing)
        }

        private mutating func remote(_ value: JSONValue) -> RawConfig.Remote? {
            guard let remote = object(value, path: "remote", known: ConfigFile.remoteKeys) else { return nil }
            let choices = ConfigFile.remoteTypes.joined(separator: ", ")
            var type: String?
            switch remote["type"] {
            case nil, .null?:
                problems.append("missing key 'remote.type' (one of \(choices))")
            case .string(let text)? where ConfigFile.remoteTypes.contains(text.lowercased()):
                type = text
            case .string(let text)?:
                let near = NearestName.suggestion(for: text, among: ConfigFile.remoteTypes).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append("remote.type: expected one of \(choices), found '\(text)'\(near)")
            case let other?:
                problems.append("remote.type: expected one of \(choices), found \(Self.describe(other))")
            }
            let parsed = RawConfig.Remote(
                type: type ?? "", path: string(remote, "path", path: "remote.path"),
                spreadsheetId: string(remote, "spreadsheetId", path: "remote.spreadsheetId"),
                credentials: string(remote, "credentials", path: "remote.credentials"),
                endpoint: string(remote, "endpoint", path: "remote.endpoint"),
                retryBudgetSeconds: number(remote, "retryBudgetSeconds", path: "remote.retryBudgetSeconds"),
                maxRequestBytes: integer(remote, "maxRequestBytes", path: "remote.maxRequestBytes", minimum: 1))
            return type == nil ? nil : parsed
        }

        /// An object, with its unknown keys reported (`_notes` excepted).
        mutating func object(_ value: JSONValue, path: String?, known: [String]) -> JSONObject? {
            guard case .object(let object) = value else {
                let what = path.map { "\($0): expected an object" } ?? "expected a JSON object at the top"
                problems.append("\(what), found \(Self.describe(value))")
                return nil
            }
            for key in object.keys where !known.contains(key) && !key.hasPrefix("_") {
                let full = path.map { "\($0).\(key)" } ?? key
                if let near = NearestName.suggestion(for: key, among: known) {
                    let nearFull = path.map { "\($0).\(near)" } ?? near
                    problems.append("unknown key '\(full)' (did you mean '\(nearFull)'?)")
                } else {
                    problems.append("unknown key '\(full)' (known keys\(path.map { " in \($0)" } ?? ""): \(known.joined(separator: ", ")))")
                }
            }
            return object
        }

        /// A string member; `null` counts as absent. `required` explains a missing one.
        mutating func string(_ object: JSONObject, _ key: String, path: String, required: String? = nil) -> String? {
            switch object[key] {
            case nil, .null?:
                if let required { problems.append("missing key '\(path)' (\(required))") }
                return nil
            case .string(let text)?:
                return text
            case let other?:
                problems.append("\(path): expected a string, found \(Self.describe(other))")
                return nil
            }
        }

        private mutating func number(_ object: JSONObject, _ key: String, path: String) -> Double? {
            switch object[key] {
            case nil, .null?:
                return nil
            case .number(let text)?:
                if let value = Double(text), value >= 0, value.isFinite { return value }
                problems.append("\(path): expected a number of seconds, 0 or more, found \(text)")
                return nil
            case let other?:
                problems.append("\(path): expected a number, found \(Self.describe(other))")
                return nil
            }
        }

        private mutating func integer(_ object: JSONObject, _ key: String, path: String, minimum: Int) -> Int? {
            switch object[key] {
            case nil, .null?:
                return nil
            case .number(let text)?:
                if let value = Int(text), value >= minimum { return value }
                problems.append("\(path): expected a whole number, \(minimum) or more, found \(text)")
                return nil
            case let other?:
                problems.append("\(path): expected a whole number, found \(Self.describe(other))")
                return nil
            }
        }

        static func describe(_ value: JSONValue) -> String {
            switch value {
            case .null: return "null"
            case .bool(let flag): return flag ? "true" : "false"
            case .number(let text): return "the number \(text)"
            case .string(let text): return "the string '\(text)'"
            case .array: return "a list"
            case .object: return "an object"
            }
        }
    }
}
