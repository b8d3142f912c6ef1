import Foundation
import Interchange

/// A calendar date with no time zone (proleptic Gregorian), written `YYYY-MM-DD`.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, or nil when the fields do not name a real day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let y = Int(text.prefix(4)), let m = Int(text.dropFirst(5).prefix(2)),
            let d = Int(text.suffix(2)),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element) })
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var description: String {
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// `YYYYMMDD`, as used in receipt file names.
    public var compact: String { description.replacingOccurrences(of: "-", with: "") }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        CivilDays.daysInMonth(year: year, month: month)
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int { CivilDays.daysSinceEpoch(year: year, month: month, day: day) }

    /// The date `days` after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let (year, month, day) = CivilDays.date(daysSinceEpoch: days)
        self.init(unchecked: year, month, day)
    }

    public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// The same day-of-month `months` later, clamped to the last day of a shorter month.
    public func adding(months: Int) -> LocalDate {
        let total = year * 12 + (month - 1) + months
        let y = total / 12
        let m = total % 12 + 1
        return LocalDate(unchecked: y, m, min(day, LocalDate.daysInMonth(year: y, month: m)))
    }

    /// Days between 1899-12-30 (the spreadsheet epoch of the 1900 date system) and 1970-01-01.
    public static let spreadsheetEpochOffset = 25569

    /// The spreadsheet serial number (1900 system) of this date.
    public var spreadsheetSerial: Int { daysSinceEpoch + LocalDate.spreadsheetEpochOffset }

    public init(spreadsheetSerial serial: Int) {
        self.init(daysSinceEpoch: serial - LocalDate.spreadsheetEpochOffset)
    }
}
