import Interchange

// What the emulator reads from and writes into the shared `JSONValue` beyond what the Google
// client needs: numbers made from doubles (the cell model holds doubles) and Google's lenient
// readings of numbers sent by clients.
extension JSONValue {
    /// A number written in its shortest round-trip decimal form (`12.5`, `1234.5`, `46037`).
    static func number(_ value: Double) -> JSONValue {
        .number(formatNumber(value))
    }

    static func number(_ value: Int) -> JSONValue {
        .integer(value)
    }

    /// Shortest decimal text for a double, without a trailing `.0` on whole numbers.
    static func formatNumber(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "0" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// The value of a number, or of a string holding one (Google accepts both for double fields).
    var doubleValue: Double? {
        switch self {
        case .number(let text), .string(let text): return Double(text)
        default: return nil
        }
    }

    /// An integer, accepting the string form Google uses for int64 fields and a whole number
    /// written with a fraction or exponent (`3.0`, `1e3`), which Google's JSON reader also takes.
    var integerValue: Int? {
        switch self {
        case .number(let text): return Int(text) ?? Double(text).flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil }
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    /// The members of an object in document order; empty for anything else.
    var members: [(key: String, value: JSONValue)] {
        objectValue?.members ?? []
    }
}

extension JSONParseError {
    /// The problem as the emulator's error bodies show it after "Invalid JSON payload received.".
    var payloadDetail: String { "\(message) at byte \(offset)" }
}

/// Builds a JSON object while skipping absent members, so answers omit what Google omits.
struct JSONObjectBuilder {
    private(set) var object = JSONObject()

    mutating func set(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        object[key] = value
    }

    mutating func set(_ key: String, _ value: String?) {
        set(key, value.map(JSONValue.string))
    }

    mutating func set(_ key: String, _ value: Int?) {
        set(key, value.map { JSONValue.integer($0) })
    }

    mutating func set(_ key: String, _ value: Bool?) {
        set(key, value.map(JSONValue.bool))
    }

    var value: JSONValue { .object(object) }
}
