import Foundation

/// An instant with millisecond precision, written `2026-11-21T22:31:20.123Z` (one format
/// everywhere, so text order is time order).
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    public init(_ date: Date) {
        self.init(millisecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1000) }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        a.millisecondsSinceEpoch < b.millisecondsSinceEpoch
    }

    public func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
    }

    /// Whether this time, a whole second, minute or day, is `other` shown at that precision (cut or
    /// rounded: less than one such unit apart). A spreadsheet that keeps times to the second
    /// saves `…:30.943Z` as `…:30` or `…:31`; one formatted to the minute or as a date, coarser.
    public func isCoarserReading(of other: Timestamp) -> Bool {
        let ms = millisecondsSinceEpoch
        let unit: Int64
        if ms % 86_400_000 == 0 {
            unit = 86_400_000
        } else if ms % 60_000 == 0 {
            unit = 60_000
        } else if ms % 1000 == 0 {
            unit = 1000
        } else {
            return false
        }
        return (other.millisecondsSinceEpoch - ms).magnitude < unit
    }

    /// Midnight UTC of a date.
    public init(startOf day: LocalDate) {
        self.init(millisecondsSinceEpoch: Int64(day.daysSinceEpoch) * 86_400_000)
    }

    /// Midnight of `day` in `timeZone`.
    public init(startOf day: LocalDate, in timeZone: TimeZone) {
        let utcMidnight = Timestamp(startOf: day)
        // The offset at local midnight; probing with the UTC-midnight offset first and then the
        // candidate's own offset handles zones far from UTC.
        var offset = Int64(timeZone.secondsFromGMT(for: utcMidnight.date)) * 1000
        let candidate = utcMidnight.adding(milliseconds: -offset)
        offset = Int64(timeZone.secondsFromGMT(for: candidate.date)) * 1000
        self = utcMidnight.adding(milliseconds: -offset)
    }

    public var utcDate: LocalDate {
        LocalDate(daysSinceEpoch: Int(floorDiv(millisecondsSinceEpoch, 86_400_000)))
    }

    public var description: String {
        let days = floorDiv(millisecondsSinceEpoch, 86_400_000)
        let msOfDay = millisecondsSinceEpoch - days * 86_400_000
        let date = LocalDate(daysSinceEpoch: Int(days))
        let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, ms = msOfDay % 1000
        guard (0...9999).contains(date.year) else {
            return "\(date)T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))Z"
        }
        // Written byte by byte: a sync formats one or two of these per row.
        return String(unsafeUninitializedCapacity: 24) { out in
            CanonicalText.put(date.year, 4, out, 0)
            out[4] = UInt8(ascii: "-")
            CanonicalText.put(date.month, 2, out, 5)
            out[7] = UInt8(ascii: "-")
            CanonicalText.put(date.day, 2, out, 8)
            out[10] = UInt8(ascii: "T")
            CanonicalText.put(Int(h), 2, out, 11)
            out[13] = UInt8(ascii: ":")
            CanonicalText.put(Int(m), 2, out, 14)
            out[16] = UInt8(ascii: ":")
            CanonicalText.put(Int(s), 2, out, 17)
            out[19] = UInt8(ascii: ".")
            CanonicalText.put(Int(ms), 3, out, 20)
            out[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Reads ISO 8601 tolerantly: `T` or a space between date and time; seconds and fractions
    /// optional; `Z`, `±HH:MM`, `±HHMM` or no zone (read as UTC); a bare date is its midnight UTC.
    public init?(iso text: String) {
        // Nothing to trim when the first and last bytes are ASCII and not blank: parse in place.
        let inPlace = CanonicalText.withBytes(text) { p -> Int64?? in Self.hasNothingToTrim(p) ? .some(Self.parseISO(p)) : nil }
        let parsed: Int64?
        if let inPlace {
            parsed = inPlace
        } else {
            parsed = Array(text.trimmingCharacters(in: .whitespaces).utf8).withUnsafeBufferPointer { Self.parseISO($0) }
        }
        guard let parsed else { return nil }
        self.init(millisecondsSinceEpoch: parsed)
    }

    /// Milliseconds since the epoch of the text `p` when `init(iso:)` reads it in place (its first and
    /// last bytes ASCII and not blank); nil otherwise, also for text that would read once trimmed.
    static func milliseconds(iso p: UnsafeBufferPointer<UInt8>) -> Int64? {
        hasNothingToTrim(p) ? parseISO(p) : nil
    }

    private static func hasNothingToTrim(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let f = p.first, let l = p.last else { return false }
        return f < 0x80 && l < 0x80 && f != 0x20 && f != 0x09 && l != 0x20 && l != 0x09
    }

    private static func parseISO(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard s.count >= 10, let day = CanonicalText.isoDate(s, 0) else { return nil }
        var ms = Int64(day.daysSinceEpoch) * 86_400_000
        var i = 10
        if i == s.count { return ms }
        guard s[i] == UInt8(ascii: "T") || s[i] == UInt8(ascii: " ") || s[i] == UInt8(ascii: "t") else { return nil }
        i += 1
        func digits(_ n: Int) -> Int64? {
            guard i + n <= s.count else { return nil }
            var v: Int64 = 0
            for k in 0..<n {
                let c = s[i + k]
                guard (48...57).contains(c) else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += n
            return v
        }
        guard let h = digits(2), i < s.count, s[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        guard let mi = digits(2), h < 24, mi < 60 else { return nil }
        ms += h * 3_600_000 + mi * 60_000
        if i < s.count, s[i] == UInt8(ascii: ":") {
            i += 1
            guard let sec = digits(2), sec < 60 else { return nil }
            ms += sec * 1000
            if i < s.count, s[i] == UInt8(ascii: ".") || s[i] == UInt8(ascii: ",") {
                i += 1
                var scale: Int64 = 100
                var frac: Int64 = 0
                let start = i
                while i < s.count, (48...57).contains(s[i]) {
                    frac += Int64(s[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
                ms += frac
            }
        }
        if i < s.count {
            switch s[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign: Int64 = s[i] == UInt8(ascii: "+") ? 1 : -1
                i += 1
                guard let oh = digits(2) else { return nil }
                if i < s.count, s[i] == UInt8(ascii: ":") { i += 1 }
                guard let om = digits(2) else { return nil }
                ms -= sign * (oh * 3_600_000 + om * 60_000)
            default:
                return nil
            }
        }
        guard i == s.count else { return nil }
        // A zone offset can carry the instant out of the years 1–9999, where no canonical text exists.
        guard (earliest..<end).contains(ms) else { return nil }
        return ms
    }

    /// 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z, in milliseconds since the epoch.
    private static let earliest: Int64 = -62_135_596_800_000
    private static let end: Int64 = 253_402_300_800_000
}

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

func pad(_ v: Int64, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
