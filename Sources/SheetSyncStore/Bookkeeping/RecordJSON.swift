import Interchange
import SheetSyncCore

/// The JSON texts of the store's bookkeeping — a base snapshot's fields (an object of field name
/// to text) and a rejected row's cells (an array of texts) — written and read with the shared
/// `Interchange` serializer and parser.
///
/// The bytes are what `JSONText.encode` (`JSONEncoder` with sorted keys and unescaped slashes) wrote
/// in every earlier version, so a store's text does not change under a person diffing it. The two
/// writers agree on every string but one holding U+007F (the shared one writes `\u007f`,
/// `JSONEncoder` the raw byte), so such a value, and a record whose names are not exactly its
/// tab's fields (whose order only `JSONEncoder` defines), still go through `JSONText.encode`.
enum RecordJSON {
    static func encode(_ fields: [String: String], tab: Tab) throws -> String {
        guard let names = keyOrder(tab), names.count == fields.count else { return try JSONText.encode(fields) }
        // Written member by member rather than through a `JSONObject`, whose key index would cost
        // more than the rest of the encoding (see bench/record-json).
        var out: [UInt8] = []
        out.reserveCapacity(32 * names.count + 64)
        out.append(UInt8(ascii: "{"))
        for (i, name) in names.enumerated() {
            guard let value = fields[name], !holdsDelete(value) else { return try JSONText.encode(fields) }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONValue.appendQuoted(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `record`'s text to `out`: the bytes `encode(record.fields, tab:)` writes, without
    /// building a dictionary per record (a first pull writes 100k base entries). False, with `out`
    /// as it was, for a record only `JSONText.encode` writes (see the type's comment).
    static func append(_ record: LedgerRow, tab: Tab, to out: inout [UInt8]) -> Bool {
        guard let members = Self.members[tab] else { return false }
        let layout = record.layout
        let values: [String]
        if layout === members.layout {
            values = record.values
        } else {
            // The same fields in another order read by name; other fields only the encoder writes.
            guard layout.names.count == members.layout.names.count else { return false }
            var byName: [String] = []
            for name in members.layout.names {
                guard let i = layout.position(of: name) else { return false }
                byName.append(record.values[i])
            }
            values = byName
        }
        guard !values.contains(where: holdsDelete) else { return false }
        for (prefix, position) in zip(members.prefixes, members.positions) {
            out.append(contentsOf: prefix)
            JSONValue.appendQuoted(values[position], to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// `append(_:tab:to:)` of a record given as its field texts (by schema field index, which is
    /// the tab's layout order): what a load (`PlainLoad`) writes for each row's base.
    static func append(_ texts: PlainLoad.FieldTexts, tab: Tab, to out: inout [UInt8]) -> Bool {
        guard let members = Self.members[tab], texts.count == members.layout.names.count,
            !(0..<texts.count).contains(where: { texts[$0].contains(0x7F) })
        else { return false }
        for (prefix, position) in zip(members.prefixes, members.positions) {
            out.append(contentsOf: prefix)
            JSONValue.appendQuoted(utf8: texts[position], to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// A tab's members in the encoder's order: the bytes written before each value (`{"name":`
    /// for the first, `,"name":` after) and the value's position in the tab's shared layout.
    private struct Members: Sendable {
        let layout: FieldLayout
        let prefixes: [[UInt8]]
        let positions: [Int]
    }

    /// nil for a tab whose `keyOrder` is nil (or that has no fields: the encoder writes `{}`).
    private static let members = PerTab<Members?> { tab in
        let layout = FieldLayout.of(tab)
        guard let names = RecordJSON.keyOrder(tab), !names.isEmpty else { return nil }
        var prefixes: [[UInt8]] = []
        var positions: [Int] = []
        for (i, name) in names.enumerated() {
            guard let position = layout.position(of: name) else { return nil }
            var prefix: [UInt8] = [UInt8(ascii: i == 0 ? "{" : ",")]
            JSONValue.appendQuoted(name, to: &prefix)
            prefix.append(UInt8(ascii: ":"))
            prefixes.append(prefix)
            positions.append(position)
        }
        return Members(layout: layout, prefixes: prefixes, positions: positions)
    }

    static func encode(cells: [String]) throws -> String {
        guard !cells.contains(where: holdsDelete) else { return try JSONText.encode(cells) }
        return JSONValue.array(cells.map(JSONValue.string)).serializedString()
    }

    private static func holdsDelete(_ text: String) -> Bool {
        // Over the contiguous bytes when there are (a native string): no iterator per byte.
        text.utf8.withContiguousStorageIfAvailable { $0.contains(0x7F) } ?? text.utf8.contains(0x7F)
    }

    /// The record in `text`: any JSON object whose members are all texts; nil for anything else.
    static func decode(_ text: String, tab: Tab) -> LedgerRow? {
        // nil is reported by every caller as `StoreError.unreadableBookkeeping`, never skipped.
        guard let object = (try? JSONValue.parse(text))?.objectValue else { return nil }
        let names = tab.schema.fieldNames
        // The usual case, the tab's fields each once, builds the record by position.
        if object.count == names.count {
            var values: [String] = []
            values.reserveCapacity(names.count)
            for name in names {
                guard let value = object[name]?.stringValue else { break }
                values.append(value)
            }
            if values.count == names.count { return SQLTexts.byTab[tab].template.record(values) }
        }
        var fields: [String: String] = [:]
        for (name, value) in object.members {
            guard let text = value.stringValue else { return nil }
            fields[name] = text
        }
        return LedgerRow(fields)
    }

    /// The cells in `text` when it is a JSON array of texts; nil for anything else.
    static func decodeCells(_ text: String) -> [String]? {
        // nil is reported by every caller as `StoreError.unreadableBookkeeping`, never skipped.
        guard let elements = (try? JSONValue.parse(text))?.arrayValue else { return nil }
        let cells = elements.compactMap(\.stringValue)
        return cells.count == elements.count ? cells : nil
    }

    /// The tab's field names in the order `JSONEncoder` sorts them.
    static func keyOrder(_ tab: Tab) -> [String]? {
        switch tab {
        case .transactions: return orders.transactions
        case .receipts: return orders.receipts
        case .categories: return orders.categories
        case .recurringRules: return orders.recurringRules
        case .settings: return orders.settings
        }
    }

    private static let orders = (
        transactions: sortedByEncoder(.transactions), receipts: sortedByEncoder(.receipts),
        categories: sortedByEncoder(.categories), recurringRules: sortedByEncoder(.recurringRules),
        settings: sortedByEncoder(.settings)
    )

    private static func sortedByEncoder(_ tab: Tab) -> [String]? {
        let names = tab.schema.fieldNames
        // The encoder's own order, read back from what it writes for the tab's names.
        // nil only costs speed: `encode` then goes through the encoder itself, for the same text.
        guard let text = try? JSONText.encode(Dictionary(uniqueKeysWithValues: names.map { ($0, "") })),
            let order = (try? JSONValue.parse(text))?.objectValue?.keys
        else { return nil }
        return Set(order) == Set(names) && order.count == names.count ? order : nil
    }
}
