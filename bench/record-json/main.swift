// Micro-benchmark: the store's base-snapshot JSON. Compares, per record of 13
// transaction fields, the hand-written fast path the store used up to ac18508 (copied below as
// `Before`), the shared Interchange serializer/parser as `RecordJSON` now uses it, and Foundation's
// JSONEncoder/JSONDecoder. Run with ./run.sh; it checks that all writers give the same bytes.
import Foundation

let names = [
    "amount", "category", "createdAt", "date", "lastModifiedAt", "month", "note", "paidFlag", "recurringRuleId",
    "tagsCSV", "transactionId", "type", "year",
]

func sampleRecords(_ count: Int) -> [[String: String]] {
    (0..<count).map { i in
        var fields: [String: String] = [:]
        for name in names { fields[name] = "" }
        fields["transactionId"] = UUID().uuidString.lowercased()
        fields["amount"] = "\(i % 997).\(i % 100)"
        fields["category"] = ["Food", "Rent", "Travel", "Café"][i % 4]
        fields["createdAt"] = "2026-01-02T03:04:05.006Z"
        fields["lastModifiedAt"] = "2026-02-03T04:05:06.007Z"
        fields["date"] = "2026-03-15"
        fields["year"] = "2026"
        fields["month"] = "3"
        fields["note"] = i % 10 == 0 ? "soup \"and\" bread\nsecond line" : "lunch with the team #\(i)"
        fields["paidFlag"] = "paid"
        fields["tagsCSV"] = "lunch, work"
        fields["type"] = "expense"
        return fields
    }
}

/// The store's code before the switch (Sources/SheetSyncStore/Bookkeeping/RecordJSON.swift at ac18508),
/// reduced to a fixed name list.
enum Before {
    static func encode(_ fields: [String: String]) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(32 * names.count + 64)
        out.append(UInt8(ascii: "{"))
        for (i, name) in names.enumerated() {
            guard let value = fields[name] else { return nil }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            guard appendString(name, to: &out) else { return nil }
            out.append(UInt8(ascii: ":"))
            guard appendString(value, to: &out) else { return nil }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "\""))
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

    static func decode(_ text: String) -> [String]? {
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
                let inOrder = count < names.count && names[count] == name
                guard let value = string(), let slot = inOrder ? count : names.firstIndex(of: name), values[slot] == nil
                else { return nil }
                values[slot] = value
                count += 1
            }
            guard i == p.count - 1, count == names.count else { return nil }
            return values.compactMap { $0 }
        }
        return parsed ?? nil
    }

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

/// The shared serializer and parser, used as `RecordJSON` uses them now.
enum Shared {
    static func encode(_ fields: [String: String]) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(32 * names.count + 64)
        out.append(UInt8(ascii: "{"))
        for (i, name) in names.enumerated() {
            guard let value = fields[name] else { return nil }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONValue.appendQuoted(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The same through a `JSONObject`, which `RecordJSON` avoids for the cost of its key index.
    static func encodeViaObject(_ fields: [String: String]) -> String? {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(names.count)
        for name in names {
            guard let value = fields[name] else { return nil }
            members.append((name, .string(value)))
        }
        return JSONValue.object(JSONObject(members)).serializedString()
    }

    static func decode(_ text: String) -> [String]? {
        guard let object = (try? JSONValue.parse(text))?.objectValue, object.count == names.count else { return nil }
        var values: [String] = []
        values.reserveCapacity(names.count)
        for name in names {
            guard let value = object[name]?.stringValue else { return nil }
            values.append(value)
        }
        return values
    }
}

func best(of runs: Int, _ body: () -> Int) -> Duration {
    var fastest = Duration.seconds(1_000)
    for _ in 0..<runs {
        let start = ContinuousClock.now
        precondition(body() > 0)
        fastest = min(fastest, ContinuousClock.now - start)
    }
    return fastest
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 20_000
let records = sampleRecords(count)
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
let texts = records.map { Before.encode($0) ?? "" }
for (record, text) in zip(records, texts) {
    let viaEncoder = String(decoding: try encoder.encode(record), as: UTF8.self)
    precondition(text == viaEncoder && Shared.encode(record) == viaEncoder && Shared.encodeViaObject(record) == viaEncoder,
        "writers disagree on \(record)")
    precondition(Before.decode(text) == Shared.decode(text), "readers disagree on \(text)")
}

func report(_ label: String, _ duration: Duration) {
    let nanos = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    print(label.padding(toLength: 34, withPad: " ", startingAt: 0), String(format: "%8.0f ns/record", nanos / Double(count)))
}

print("\(count) records of \(names.count) fields, best of 5 runs")
report("encode: before (hand fast path)", best(of: 5) { records.reduce(0) { $0 + (Before.encode($1)?.utf8.count ?? 0) } })
report("encode: shared appendQuoted", best(of: 5) { records.reduce(0) { $0 + (Shared.encode($1)?.utf8.count ?? 0) } })
report("encode: shared, via JSONObject", best(of: 5) { records.reduce(0) { $0 + (Shared.encodeViaObject($1)?.utf8.count ?? 0) } })
report("encode: JSONEncoder", best(of: 5) { records.reduce(0) { $0 + ((try? encoder.encode($1))?.count ?? 0) } })
report("decode: before (hand fast path)", best(of: 5) { texts.reduce(0) { $0 + (Before.decode($1)?.count ?? 0) } })
report("decode: shared parser", best(of: 5) { texts.reduce(0) { $0 + (Shared.decode($1)?.count ?? 0) } })
let decoder = JSONDecoder()
report("decode: JSONDecoder", best(of: 5) {
    texts.reduce(0) { $0 + ((try? decoder.decode([String: String].self, from: Data($1.utf8)))?.count ?? 0) }
})
