import Foundation
import Interchange

/// Turns stored date numbers into `Cell.dateSerial` text: days since 1899-12-30, exact decimal.
public enum DateSerial {
    /// Days from 1904-01-01 (serial 0 of the 1904 system) back to 1899-12-30.
    static let offset1904 = 1462

    /// The 1900-system serial of a stored date number.
    ///
    /// 1904 workbooks count from 1904-01-01, so 1462 days are added. In the 1900 system Excel
    /// counts the fictitious 1900-02-29 as serial 60, so serials 1–59 (January and February 1900)
    /// sit one day early against a plain count from 1899-12-30 and get one added; 60 itself, a day
    /// that never was, reads as 1900-02-28, as calamine reads it. Text is added exactly; the
    /// common case (1900 system, 1900-03-01 or later) returns the text unchanged.
    static func normalized(_ text: String, uses1904: Bool) -> String {
        if uses1904 { return adding(offset1904, to: text) }
        guard let value = Double(text), value >= 1, value < 60 else { return text }
        return adding(1, to: text)
    }

    /// The number to store for a serial counted from 1899-12-30, in the workbook's date system.
    public static func stored(_ text: String, uses1904: Bool) -> String {
        uses1904 ? adding(-offset1904, to: text) : excel1900(text)
    }

    /// The stored 1900-system number for a serial counted from 1899-12-30: the inverse of
    /// `normalized`, so dates in January and February 1900 land on the day Excel shows.
    static func excel1900(_ text: String) -> String {
        // Only serials below 100 can need it; most dates have five integer digits and no exponent.
        // Leading zeros (`023.`) do not make a serial bigger; an exponent (`4005e-3`) may make it smaller.
        let integerDigits = text.utf8.drop { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "+") }
            .prefix { $0 != UInt8(ascii: ".") && $0 | 0x20 != UInt8(ascii: "e") }.count
        let hasExponent = text.utf8.contains { $0 | 0x20 == UInt8(ascii: "e") }
        guard integerDigits <= 2 || hasExponent, let value = Double(text), value >= 2, value < 61 else { return text }
        return adding(-1, to: text)
    }

    /// `text + days`, computed in decimal so no binary rounding creeps in.
    static func adding(_ days: Int, to text: String) -> String {
        // `Decimal(string:)` reads a prefix (`12abc` is 12): text that is no number stays as it is.
        guard NumberText.isValid(text.utf8),
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return text }
        return (value + Decimal(days)).description
    }

    /// The serial of an ISO 8601 date or date-time, as `t="d"` cells store them (`2024-03-05`,
    /// `2024-03-05T13:45:00`, optionally with fractional seconds and a zone, which is ignored: the
    /// cell shows the wall time). Nil when the text is not such a date.
    static func fromISO8601(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1, day <= CivilDays.daysInMonth(year: year, month: month)
        else { return nil }
        let days = CivilDays.daysSinceEpoch(year: year, month: month, day: day) - Self.epoch1900
        guard bytes.count > 10 else { return String(days) }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes.count >= 16,
            bytes[13] == UInt8(ascii: ":"), let hour = number(11..<13), let minute = number(14..<16),
            hour < 24, minute < 60
        else { return nil }
        var seconds = Double(hour * 3600 + minute * 60)
        if bytes.count >= 19, bytes[16] == UInt8(ascii: ":"), let second = number(17..<19), second < 60 {
            seconds += Double(second)
            var index = 19
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                var scale = 0.1
                index += 1
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    seconds += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
            }
        }
        if seconds == 0 { return String(days) }
        // A time of day is a binary fraction in Excel too; this is the number Excel would store.
        return (Double(days) + seconds / 86_400).description
    }

    /// Days since 1970-01-01 of 1899-12-30, serial 0 of the 1900 date system.
    private static let epoch1900 = CivilDays.daysSinceEpoch(year: 1899, month: 12, day: 30)
}
