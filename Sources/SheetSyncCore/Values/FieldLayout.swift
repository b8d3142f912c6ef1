/// The field names a family of `LedgerRow`s shares, and each name's position in their values.
///
/// Every row of a tab read from a sheet or the store points at the same layout (the tab's), so a
/// row is one array of texts, and two rows of one layout compare value by value with no name
/// hashed. The layout is immutable and shared between threads.
public final class FieldLayout: Sendable {
    /// The field names, distinct, in value order.
    public let names: [String]
    private let positions: [String: Int]
    /// Value positions in the order of the names sorted: the order a row's values are hashed in,
    /// so that equal rows hash alike whatever their layouts.
    let hashOrder: [Int]

    /// A layout of `names`; a repeated name keeps its first position only, so callers pass distinct
    /// names (`interned(names:)` checks for them).
    private init(distinct names: [String]) {
        self.names = names
        var positions = [String: Int](minimumCapacity: names.count)
        for (i, name) in names.enumerated() { positions[name] = i }
        self.positions = positions
        hashOrder = names.indices.sorted { names[$0] < names[$1] }
    }

    /// The position of `name`, or nil when rows of this layout have no such field.
    @inline(__always)
    public func position(of name: String) -> Int? { positions[name] }

    /// The layout of `names` (distinct): the shared layout of a tab when they are its schema's
    /// field names, so rows built from the store, the sheet and the base all share one.
    public static func interned(names: [String]) -> FieldLayout? {
        if let known = standard.first(where: { $0.names == names }) { return known }
        guard Set(names).count == names.count else { return nil }
        return FieldLayout(distinct: names)
    }

    /// The shared layout of a tab's rows (its schema's field names, in schema order).
    public static func of(_ tab: Tab) -> FieldLayout {
        // `standard` is built from `Tab.allCases` in order.
        standard[Tab.allCases.firstIndex(of: tab) ?? 0]
    }

    /// The layout of a row without fields (a record built up field by field starts from it).
    private static let empty = FieldLayout(distinct: [])

    /// The five tabs' layouts, in `Tab.allCases` order.
    private static let standard: [FieldLayout] = Tab.allCases.map { FieldLayout(distinct: $0.schema.fieldNames) }

    /// The layout and values for a dictionary of fields: a tab's shared layout when the names are
    /// exactly that tab's fields, else a layout of the names sorted.
    static func arrange(_ fields: [String: String]) -> (FieldLayout, [String]) {
        if fields.isEmpty { return (empty, []) }
        for layout in standard where layout.names.count == fields.count {
            var values: [String] = []
            values.reserveCapacity(fields.count)
            for name in layout.names {
                guard let value = fields[name] else { break }
                values.append(value)
            }
            if values.count == fields.count { return (layout, values) }
        }
        let names = fields.keys.sorted()
        return (FieldLayout(distinct: names), names.map { fields[$0] ?? "" })
    }

    /// This layout with `name` added at the end.
    func adding(_ name: String) -> FieldLayout { FieldLayout(distinct: names + [name]) }
}

/// A field's position in one layout: reading it from rows of that layout takes no name lookup
/// (rows of another layout are read by name, with the same result).
public struct FieldSlot: Sendable {
    public let key: FieldKey
    let layout: FieldLayout
    /// The field's position in `layout`, or -1 when the layout lacks it (rows are then read by key).
    let position: Int

    public init(_ key: FieldKey, in layout: FieldLayout) {
        self.key = key
        self.layout = layout
        position = layout.position(of: key.rawValue) ?? -1
    }

    /// The slot of `key` in the shared layout of `tab`'s rows.
    public init(_ key: FieldKey, of tab: Tab) { self.init(key, in: FieldLayout.of(tab)) }

    /// The field name, `key.rawValue`.
    public var name: String { key.rawValue }
}
