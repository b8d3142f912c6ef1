import Foundation
import Interchange

/// `valueRenderOption` of the values endpoints.
enum ValueRenderOption: String, Sendable {
    case formatted = "FORMATTED_VALUE"
    case unformatted = "UNFORMATTED_VALUE"
    case formula = "FORMULA"
}

/// `dateTimeRenderOption` of the values endpoints.
enum DateTimeRenderOption: String, Sendable {
    case serialNumber = "SERIAL_NUMBER"
    case formattedString = "FORMATTED_STRING"
}

/// Turns cells into the JSON values of a `ValueRange`, as Sheets renders them.
struct ValueRenderer: Sendable {
    var valueOption: ValueRenderOption = .formatted
    var dateTimeOption: DateTimeRenderOption = .serialNumber

    func render(_ cell: EmulatedCell) -> JSONValue {
        switch cell.value {
        case .empty:
            return .string("")
        case .string(let s):
            return .string(s)
        case .formula(let f):
            // The emulator does not calculate: every render option shows the formula as typed.
            return .string(f)
        case .bool(let b):
            return valueOption == .formatted ? .string(b ? "TRUE" : "FALSE") : .bool(b)
        case .number(let n):
            if valueOption == .formatted {
                return .string(Self.formattedText(n, format: cell.numberFormat))
            }
            if dateTimeOption == .formattedString, let format = cell.numberFormat, format.isDateLike {
                return .string(Self.formattedText(n, format: format))
            }
            return .number(n)
        }
    }

    /// The text a cell shows for a number under its format.
    static func formattedText(_ value: Double, format: EmulatedNumberFormat?) -> String {
        guard let format, !format.pattern.isEmpty, format.type != "TEXT", format.type != "SCIENTIFIC" else {
            return general(value)
        }
        if format.isDateLike { return DateSerial.format(value, pattern: format.pattern) }
        return NumberPattern(format.pattern).format(value)
    }

    /// Sheets' "Automatic" format: up to 15 significant digits, no grouping, no trailing zeros.
    static func general(_ value: Double) -> String {
        let rounded = Double(String(format: "%.15g", value)) ?? value
        return JSONValue.formatNumber(rounded)
    }
}

/// The numeric part of a number format pattern such as `#,##0.00`, `"$"#,##0.00` or `0.0%`.
struct NumberPattern {
    var prefix = ""
    var suffix = ""
    var minDecimals = 0
    var maxDecimals = 0
    var grouping = false
    var percent = false

    init(_ pattern: String) {
        let section = pattern.split(separator: ";", omittingEmptySubsequences: false).first.map(String.init) ?? pattern
        var inNumber = false
        var afterNumber = false
        var afterPoint = false
        var quoted = false
        for c in section {
            if c == "\"" { quoted.toggle(); continue }
            if quoted || c == "\\" {
                if c != "\\" { afterNumber || inNumber ? suffix.append(c) : prefix.append(c) }
                continue
            }
            switch c {
            case "0", "#", "?":
                guard !afterNumber else { suffix.append(c); continue }
                inNumber = true
                if afterPoint {
                    maxDecimals += 1
                    if c == "0" { minDecimals = maxDecimals }
                }
            case "." where inNumber && !afterNumber:
                afterPoint = true
            case "," where inNumber && !afterPoint:
                grouping = true
            case "%":
                percent = true
                afterNumber = inNumber
                suffix.append(c)
            default:
                if inNumber { afterNumber = true }
                if c == "[" || c == "]" { continue }
                afterNumber ? suffix.append(c) : prefix.append(c)
            }
        }
    }

    func format(_ raw: Double) -> String {
        let value = percent ? raw * 100 : raw
        var text = String(format: "%.\(maxDecimals)f", abs(value))
        if maxDecimals > minDecimals, text.contains(".") {
            while text.hasSuffix("0"), let point = text.firstIndex(of: "."), text.distance(from: point, to: text.endIndex) - 1 > minDecimals
            {
                text.removeLast()
            }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if grouping {
            let parts = text.split(separator: ".", maxSplits: 1)
            var integer = String(parts[0])
            var grouped = ""
            while integer.count > 3 {
                grouped = "," + integer.suffix(3) + grouped
                integer.removeLast(3)
            }
            text = integer + grouped + (parts.count > 1 ? "." + parts[1] : "")
        }
        let negative = value < 0 && text.contains(where: { $0 != "0" && $0 != "." && $0 != "," })
        return (negative ? "-" : "") + prefix + text + suffix
    }
}
