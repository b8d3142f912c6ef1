import Interchange

/// Sheets date serial numbers: days since 1899-12-30, the fraction being the time of day.
enum DateSerial {
    /// Days from 1970-01-01 to 1899-12-30.
    private static let epochOffset = 25569

    /// The serial of a civil date (proleptic Gregorian).
    static func serial(year: Int, month: Int, day: Int) -> Int {
        CivilDays.daysSinceEpoch(year: year, month: month, day: day) + epochOffset
    }

    /// The civil date of a serial's whole part.
    static func civil(serial: Double) -> (year: Int, month: Int, day: Int) {
        CivilDays.date(daysSinceEpoch: Int(serial.rounded(.down)) - epochOffset)
    }

    /// Recognises the date spellings a person types: `2026-01-15`, `2026/1/15`, `1/15/2026`.
    /// Returns the serial and the pattern Sheets assigns so the cell shows as typed.
    static func parseTypedDate(_ text: String) -> (Double, String)? {
        let separator: Character
        if text.contains("-") {
            separator = "-"
        } else if text.contains("/") {
            separator = "/"
        } else {
            return nil
        }
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
        else { return nil }
        let year: Int
        let month: Int
        let day: Int
        let pattern: String
        if parts[0].count == 4 {
            (year, month, day) = (a, b, c)
            pattern = separator == "-" ? "yyyy-mm-dd" : "yyyy/m/d"
        } else if parts[2].count == 4, separator == "/" {
            (year, month, day) = (c, a, b)
            pattern = "M/d/yyyy"
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...CivilDays.daysInMonth(year: year, month: month)).contains(day), (1900...9999).contains(year)
        else { return nil }
        return (Double(serial(year: year, month: month, day: day)), pattern)
    }

    /// Renders a serial with a date/time pattern (`yyyy-mm-dd`, `M/d/yyyy`, `hh:mm:ss`, `mmm d, yyyy`).
    static func format(_ serial: Double, pattern: String) -> String {
        let (year, month, day) = civil(serial: serial)
        let secondsOfDay = Int(((serial - serial.rounded(.down)) * 86_400).rounded())
        let (hour, minute, second) = (secondsOfDay / 3600, secondsOfDay / 60 % 60, secondsOfDay % 60)
        let monthNames = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December",
        ]
        let chars = Array(pattern)
        var out = ""
        var index = 0
        var lastWasHour = false
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        while index < chars.count {
            let c = chars[index]
            let lower = Character(c.lowercased())
            guard "ymdhs".contains(lower) else {
                if c == "\"" {
                    index += 1
                    while index < chars.count, chars[index] != "\"" { out.append(chars[index]); index += 1 }
                } else if c != "\\" {
                    out.append(c)
                }
                index += 1
                continue
            }
            var run = 0
            while index < chars.count, Character(chars[index].lowercased()) == lower { run += 1; index += 1 }
            let nextIsSeconds = chars[index...].first(where: { $0.isLetter }).map { $0.lowercased() == "s" } ?? false
            switch lower {
            case "y": out += run <= 2 ? pad(year % 100, 2) : pad(year, 4)
            case "d": out += run == 1 ? String(day) : pad(day, 2)
            case "h": out += run == 1 ? String(hour) : pad(hour, 2)
            case "s": out += run == 1 ? String(second) : pad(second, 2)
            default:
                if lastWasHour || nextIsSeconds {
                    out += run == 1 ? String(minute) : pad(minute, 2)
                } else if run >= 4 {
                    out += monthNames[month - 1]
                } else if run == 3 {
                    out += String(monthNames[month - 1].prefix(3))
                } else {
                    out += run == 1 ? String(month) : pad(month, 2)
                }
            }
            lastWasHour = lower == "h"
        }
        return out
    }
}
