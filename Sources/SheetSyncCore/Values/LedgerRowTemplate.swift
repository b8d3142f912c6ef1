/// Builds many `LedgerRow`s with the same field names without hashing a name per field.
///
/// A copy of a dictionary keeps its storage layout (same seed, same buckets), so the positions of
/// the template's keys are valid in every copy: a record is the template copied once and its
/// values stored by position. The result equals the record built key by key.
public struct LedgerRowTemplate: Sendable {
    private let empty: [String: String]
    private let slots: [Dictionary<String, String>.Index]

    /// `names` must be distinct.
    public init(names: [String]) {
        var empty = [String: String](minimumCapacity: names.count)
        for name in names { empty[name] = "" }
        self.empty = empty
        slots = names.map { name in empty.index(forKey: name) ?? empty.startIndex }
    }

    /// The record whose field `names[i]` holds `values[i]`.
    public func record(_ values: [String]) -> LedgerRow {
        var fields = empty
        for (slot, value) in zip(slots, values) { fields.values[slot] = value }
        return LedgerRow(fields)
    }
}
