/// Builds many `LedgerRow`s with the same field names without hashing a name per field.
///
/// Every record shares one `FieldLayout` (the tab's own when `names` are a schema's field
/// names), so a record is just its array of values.
public struct LedgerRowTemplate: Sendable {
    /// The records' shared layout (nil for repeated names).
    public let layout: FieldLayout?
    private let names: [String]

    /// `names` should be distinct (with a repeated name, the last value given for it wins).
    public init(names: [String]) {
        self.names = names
        layout = FieldLayout.interned(names: names)
    }

    /// The record whose field `names[i]` holds `values[i]`.
    public func record(_ values: [String]) -> LedgerRow {
        if let layout { return LedgerRow(layout: layout, values: values) }
        var fields = [String: String](minimumCapacity: names.count)
        for (i, name) in names.enumerated() { fields[name] = i < values.count ? values[i] : "" }
        return LedgerRow(fields)
    }
}
