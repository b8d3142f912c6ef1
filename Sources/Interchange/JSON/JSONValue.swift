/// A JSON document that keeps number literals as their exact text and object keys in order.
///
/// Sheets amounts must never pass through `Double`, so `.number` holds the literal as written
/// (`"12.10"`, `"1e400"`); `JSONValue.number(_:)` helpers build them from integers and decimal text.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object whose keys keep their document order; lookups in a large object go through an index.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// The members in document order.
    public private(set) var members: [(key: String, value: JSONValue)]
    /// Key → position, kept only from `indexedFrom` members on (empty below): most objects are
    /// small, and a scan of a few keys is cheaper than building a dictionary for each one.
    private var index: [String: Int]
    private static let indexedFrom = 16

    public init() {
        members = []
        index = [:]
    }

    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// Reads or replaces a member; assigning `nil` removes it. A replaced key keeps its position.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append((key, newValue))
                if members.count == Self.indexedFrom {
                    rebuildIndex()
                } else if members.count > Self.indexedFrom {
                    index[key] = members.count - 1
                }
            }
        }
    }

    private func position(of key: String) -> Int? {
        members.count < Self.indexedFrom ? members.firstIndex { $0.key == key } : index[key]
    }

    private mutating func rebuildIndex() {
        index = [:]
        guard members.count >= Self.indexedFrom else { return }
        for (position, member) in members.enumerated() { index[member.key] = position }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByIntegerLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
}

extension JSONValue {
    /// A number from an integer, written exactly.
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// A number from decimal text such as `-12.50`; returns nil when the text is not a JSON number.
    public static func decimal(_ text: String) -> JSONValue? {
        JSONParser.isValidNumber(Array(text.utf8)) ? .number(text) : nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The literal text of a number.
    public var numberText: String? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// An integer when the number literal is one (no fraction or exponent) or a string of digits,
    /// as Google encodes int64 fields as strings.
    public var intValue: Int? {
        switch self {
        case .number(let text), .string(let text): return Int(text)
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// A member of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}
