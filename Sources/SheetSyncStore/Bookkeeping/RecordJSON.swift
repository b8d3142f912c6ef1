import Foundation
import SheetSyncCore

/// A base snapshot's field texts as the JSON object `JSONText.encode` writes (sorted keys,
/// unescaped slashes), byte for byte, without a `JSONEncoder` per row.
///
/// The key order is taken from `JSONEncoder` itself, once per tab, for the tab's field names; a
/// record with other keys, or a value with a control character other than `\b \f \n \r \t`, is
/// handed to `JSONText.encode`.
enum RecordJSON {
    static func encode(_ fields: [String: String], tab: Tab) throws -> String {
        guard let names = keyOrder(tab), names.count == fields.count else { return try JSONText.encode(fields) }
        var out: [UInt8] = []
        out.reserveCapacity(32 * names.count + 64)
        out.append(UInt8(ascii: "{"))
        for (i, name) in names.enumerated() {
            guard let value = fields[name] else { return try JSONText.encode(fields) }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            guard appendString(name, to: &out) else { return try JSONText.encode(fields) }
            out.append(UInt8(ascii: ":"))
            guard appendString(value, to: &out) else { return try JSONText.encode(fields) }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `"text"` escaped as JSONEncoder escapes it; false for a control character it may
    /// spell differently.
    private static func appendString(_ text: String, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "\""))
        // Most texts need no escape at all: copy them whole.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            out.append(UInt8(ascii: "\""))
            return true
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20, 0x7F: return false
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return true
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
        // Field names are plain identifiers, so the encoded object splits cleanly.
        guard names.allSatisfy({ $0.utf8.allSatisfy { ($0 | 0x20) &- 97 < 26 || $0 &- 48 < 10 || $0 == 95 } }),
            let text = try? JSONText.encode(Dictionary(uniqueKeysWithValues: names.map { ($0, "") }))
        else { return nil }
        let order = text.dropFirst().dropLast().split(separator: ",").map { String($0.dropFirst().dropLast(4)) }
        return Set(order) == Set(names) && order.count == names.count ? order : nil
    }
}

extension RecordJSON {
    /// The record in `text` when it is exactly what `encode` writes for `tab` (no whitespace, the
    /// tab's field names each once, escapes among `\" \\ \/ \b \f \n \r \t`); nil for anything else,
    /// which `JSONDecoder` then reads (or refuses) as before.
    static func decode(_ text: String, tab: Tab) -> SheetSyncCore.Record? {
        let template = SQLTexts.of(tab).template
        let names = tab.schema.fieldNames
        // Objects `encode` wrote list the names in this order: one comparison finds each slot.
        let order = keyOrder(tab) ?? []
        let orderSlots = encodedSlots[tab] ?? []
        let parsed = text.utf8.withContiguousStorageIfAvailable { p -> [String]? in
            var values = [String?](repeating: nil, count: names.count)
            var i = 0
            func string() -> String? {
                guard i < p.count, p[i] == UInt8(ascii: "\"") else { return nil }
                i += 1
                let start = i
                var escaped = false
                while i < p.count, p[i] != UInt8(ascii: "\"") {
                    if p[i] < 0x20 { return nil }
                    if p[i] == UInt8(ascii: "\\") {
                        escaped = true
                        i += 1
                    }
                    i += 1
                }
                guard i < p.count else { return nil }
                let raw = UnsafeBufferPointer(rebasing: p[start..<i])
                i += 1
                return escaped ? unescape(raw) : String(decoding: raw, as: UTF8.self)
            }
            guard p.count >= 2, p[0] == UInt8(ascii: "{") else { return nil }
            i = 1
            var count = 0
            while i < p.count, p[i] != UInt8(ascii: "}") {
                if count > 0 {
                    guard p[i] == UInt8(ascii: ",") else { return nil }
                    i += 1
                }
                guard let name = string(), i < p.count, p[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                let inOrder = count < orderSlots.count && order[count] == name
                guard let value = string(), let slot = inOrder ? orderSlots[count] : names.firstIndex(of: name),
                    values[slot] == nil
                else { return nil }
                values[slot] = value
                count += 1
            }
            guard i == p.count - 1, count == names.count else { return nil }
            return values.compactMap { $0 }
        }
        guard let values = parsed ?? nil else { return nil }
        return template.record(values)
    }

    /// For each tab, the field position of each name in `keyOrder` order.
    private static let encodedSlots: [Tab: [Int]] = Dictionary(
        uniqueKeysWithValues: Tab.allCases.map { tab in
            let names = tab.schema.fieldNames
            return (tab, (keyOrder(tab) ?? []).compactMap { names.firstIndex(of: $0) })
        })

    /// The text of a JSON string body with simple escapes; nil for `\u` or an unknown escape.
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 1 < raw.count else { return nil }
            switch raw[i + 1] {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            default: return nil
            }
            i += 2
        }
        return String(decoding: out, as: UTF8.self)
    }
}
