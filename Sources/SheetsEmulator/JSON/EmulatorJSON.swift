/// A JSON document as the emulator reads and writes it.
///
/// Numbers keep their source text so `12.50` sent by a client is seen exactly as sent, and object
/// keys keep their order so answers read like Google's.
public enum EmulatorJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([EmulatorJSON])
    case object([(String, EmulatorJSON)])

    public static func == (lhs: EmulatorJSON, rhs: EmulatorJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || Double(a) == Double(b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// A number written in its shortest round-trip decimal form (`12.5`, `1234.5`, `46037`).
    public static func number(_ value: Double) -> EmulatorJSON {
        .number(formatNumber(value))
    }

    public static func number(_ value: Int) -> EmulatorJSON {
        .number(String(value))
    }

    /// Shortest decimal text for a double, without a trailing `.0` on whole numbers.
    public static func formatNumber(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "0" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    public subscript(key: String) -> EmulatorJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var doubleValue: Double? {
        switch self {
        case .number(let text): return Double(text)
        case .string(let text): return Double(text)
        default: return nil
        }
    }

    /// An integer, accepting the string form Google uses for int64 fields.
    public var intValue: Int? {
        switch self {
        case .number(let text): return Int(text) ?? Double(text).flatMap { $0 == $0.rounded() ? Int($0) : nil }
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [EmulatorJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [(String, EmulatorJSON)]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The object's keys, in document order.
    public var keys: [String] {
        objectValue?.map(\.0) ?? []
    }
}

/// Builds a JSON object while skipping absent members, so answers omit what Google omits.
struct JSONObjectBuilder {
    private(set) var members: [(String, EmulatorJSON)] = []

    mutating func set(_ key: String, _ value: EmulatorJSON?) {
        guard let value else { return }
        if let index = members.firstIndex(where: { $0.0 == key }) {
            members[index].1 = value
        } else {
            members.append((key, value))
        }
    }

    mutating func set(_ key: String, _ value: String?) {
        set(key, value.map(EmulatorJSON.string))
    }

    mutating func set(_ key: String, _ value: Int?) {
        set(key, value.map(EmulatorJSON.number(_:)))
    }

    mutating func set(_ key: String, _ value: Bool?) {
        set(key, value.map(EmulatorJSON.bool))
    }

    var value: EmulatorJSON { .object(members) }
}

extension EmulatorJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension EmulatorJSON: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(arrayLiteral elements: EmulatorJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, EmulatorJSON)...) { self = .object(elements) }
}
