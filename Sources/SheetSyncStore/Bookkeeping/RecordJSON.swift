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

    private static let orders = (transactions: sortedByEncoder(.transactions), receipts: sortedByEncoder(.receipts),
                                 categories: sortedByEncoder(.categories), recurringRules: sortedByEncoder(.recurringRules),
                                 settings: sortedByEncoder(.settings))

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
