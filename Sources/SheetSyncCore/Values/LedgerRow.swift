/// One row of a tab as canonical field texts: every field of the schema is present,
/// `""` meaning empty. Canonical forms: lowercase UUIDs, `YYYY-MM-DD` dates, timestamps as
/// `Timestamp.description`, amounts as `Amount.description`, integers in decimal, booleans
/// `TRUE`/`FALSE`, enums lowercase.
///
/// The values sit in an array in the order of a shared `FieldLayout` (a tab's rows all share
/// the tab's), not in a dictionary per row: a sync holds and compares hundreds of thousands of
/// rows. Two rows are equal when they have the same field names with the same values, whatever
/// their layouts.
public struct LedgerRow: Hashable, Sendable {
    /// The field names and their positions in `values`.
    public private(set) var layout: FieldLayout
    /// The field values, in the order of `layout.names`.
    public private(set) var values: [String]

    /// A row of `layout` holding `values` (missing values are `""`, extra ones dropped).
    public init(layout: FieldLayout, values: [String]) {
        self.layout = layout
        var values = values
        let count = layout.names.count
        if values.count != count {
            if values.count > count {
                values.removeLast(values.count - count)
            } else {
                values += repeatElement("", count: count - values.count)
            }
        }
        self.values = values
    }

    /// A row without fields (a record built up field by field starts from it).
    public init() { self.init([String: String]()) }

    public init(_ fields: [String: String]) {
        (layout, values) = FieldLayout.arrange(fields)
    }

    /// A row of the given fields (a tab's shared layout when they are exactly that tab's fields).
    public init(_ fields: [FieldKey: String]) {
        self.init(Dictionary(uniqueKeysWithValues: fields.map { ($0.key.rawValue, $0.value) }))
    }

    /// The row as a dictionary of field name → value (built on each use: for the few cold callers).
    public var fields: [String: String] {
        get { Dictionary(uniqueKeysWithValues: zip(layout.names, values)) }
        set { self = LedgerRow(newValue) }
    }

    /// Each field name with its value, in layout order.
    public var namedValues: Zip2Sequence<[String], [String]> { zip(layout.names, values) }

    /// The value of field `key`, `""` when the row has no such field; setting adds the field.
    public subscript(_ key: FieldKey) -> String {
        @inline(__always) get { self[named: key.rawValue] }
        @inline(__always) set { self[named: key.rawValue] = newValue }
    }

    /// The value of the field named `name` (a name not known until run time: a schema's fields
    /// iterated, a sheet's columns), `""` when the row has no such field; setting adds the field.
    public subscript(named name: String) -> String {
        get {
            guard let i = layout.position(of: name) else { return "" }
            return values[i]
        }
        set {
            if let i = layout.position(of: name) {
                values[i] = newValue
            } else {
                layout = layout.adding(name)
                values.append(newValue)
            }
        }
    }

    /// The value of the slot's field, by position when this row has the slot's layout.
    public subscript(_ slot: FieldSlot) -> String {
        get {
            if layout === slot.layout, slot.position >= 0 { return values[slot.position] }
            return self[slot.key]
        }
        set {
            if layout === slot.layout, slot.position >= 0 {
                values[slot.position] = newValue
            } else {
                self[slot.key] = newValue
            }
        }
    }

    public static func == (a: LedgerRow, b: LedgerRow) -> Bool {
        if a.layout === b.layout { return a.values == b.values }
        guard a.values.count == b.values.count else { return false }
        for (i, name) in a.layout.names.enumerated() {
            guard let j = b.layout.position(of: name), b.values[j] == a.values[i] else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values.count)
        for i in layout.hashOrder { hasher.combine(values[i]) }
    }
}
