import Foundation
import SheetSyncCore

/// OFX 1.x (SGML: a leaf's closing tag may be left out), OFX 2.x (XML) and QFX, read by one
/// tag scanner: every `<STMTTRN>` of a bank (`STMTRS`) or credit-card (`CCSTMTRS`) statement is an
/// entry; the account is the nearest `ACCTID` before it.
enum OFXParser {
    static func read(_ text: String, file: String) throws(StatementError) -> Statement {
        // Two calls, not one over `any Sequence`: each reading is then compiled for its own units.
        if StatementText.scansByBytes(text) { return try read(OFXTags(Array(text.utf8)), file: file) }
        return try read(OFXTags(Array(text)), file: file)
    }

    private static func read<Unit: TextUnit>(_ tags: OFXTags<Unit>, file: String) throws(StatementError) -> Statement {
        var statement = Statement(format: .ofx)
        var account = ""
        var current: [String: String]?
        var start = 0
        var inPayee = false
        var sawOFX = false
        for tag in tags {
            switch tag.name {
            case "OFX": sawOFX = true
            case "STMTTRN":
                current = [:]
                start = tag.line
            case "/STMTTRN":
                if let fields = current {
                    do throws(StatementError) {
                        statement.entries.append(try entry(fields, account: account, line: start, file: file))
                    } catch {
                        statement.refused.append(error)
                    }
                }
                current = nil
            case "PAYEE": inPayee = true
            case "/PAYEE": inPayee = false
            case "ACCTID" where current == nil: account = tag.value
            default:
                guard current != nil, !tag.name.hasPrefix("/"), !tag.value.isEmpty else { continue }
                // PAYEE's NAME is the payee's name; a NAME of its own wins when both are there.
                let key = inPayee && tag.name == "NAME" ? "PAYEE.NAME" : tag.name
                if current?[key] == nil { current?[key] = tag.value }
            }
        }
        guard sawOFX else { throw StatementError(file: file, problem: .unknownFormat("an OFX header without an <OFX> element")) }
        return statement
    }

    private static func entry(_ fields: [String: String], account: String, line: Int, file: String) throws(StatementError) -> StatementEntry
    {
        guard let posted = fields["DTPOSTED"] else { throw StatementError(file: file, line: line, problem: .missingField("DTPOSTED")) }
        // The calendar date as printed, in the statement's own offset: never moved to another zone.
        guard let date = LocalDate(compactPrefix: posted) else {
            throw StatementError(file: file, line: line, problem: .badDate(posted))
        }
        guard let text = fields["TRNAMT"] else { throw StatementError(file: file, line: line, problem: .missingField("TRNAMT")) }
        guard let amount = StatementAmount.parse(text, decimalMark: text.contains(".") ? "." : ",") else {
            throw StatementError(file: file, line: line, problem: .badAmount(text))
        }
        return StatementEntry(
            date: date, amount: amount.magnitude, direction: amount.negative ? .outgoing : .incoming,
            payee: fields["NAME"] ?? fields["PAYEE.NAME"] ?? fields["PAYEE"] ?? "", memo: fields["MEMO"] ?? "",
            reference: fields["FITID"], account: account, line: line)
    }
}

extension LocalDate {
    /// `YYYYMMDD` at the start of `text` (OFX dates, which may go on with a time and an offset).
    init?(compactPrefix text: String) {
        let digits = text.prefix(8)
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(digits.prefix(4)),
            let month = Int(digits.dropFirst(4).prefix(2)), let day = Int(digits.suffix(2))
        else { return nil }
        self.init(year: year, month: month, day: day)
    }
}

/// A tag of an OFX document: its name (uppercased, without attributes), the text after it up to the
/// next tag (a leaf's value), and its line.
struct OFXTag {
    var name: String
    var value: String
    var line: Int
}

/// The tags of an OFX document in order, read by `units` (`TextUnit`). Processing instructions,
/// comments and declarations are skipped; `<X/>` is an empty leaf.
struct OFXTags<Unit: TextUnit>: Sequence, IteratorProtocol {
    private let units: [Unit]
    private var index = 0
    private var line = 1

    init(_ units: [Unit]) { self.units = units }

    mutating func next() -> OFXTag? {
        let open = Unit(ascii: 0x3C)
        let close = Unit(ascii: 0x3E)
        while index < units.count, units[index] != open { advance() }
        guard index < units.count else { return nil }
        let tagLine = line
        // Past `<` and, below, past `>` by hand: neither is a line break. (`advance()` here is what
        // Swift 6.3's optimizer got wrong in this generic scanner: the name kept its `<`.)
        index += 1
        let nameStart = index
        while index < units.count, units[index] != close { advance() }
        var name = Unit.text(units[nameStart..<index])
        if index < units.count { index += 1 }
        if name.hasPrefix("?") || name.hasPrefix("!") { return next() }
        let selfClosing = name.hasSuffix("/")
        if selfClosing { name.removeLast() }
        // A name of printable ASCII (as tags are) has no whitespace to end it early.
        if !name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { name = String(name.prefix { !$0.isWhitespace }) }
        name = name.uppercased()
        let valueStart = index
        if !selfClosing {
            while index < units.count, units[index] != open { advance() }
        }
        let value = Unit.text(units[valueStart..<index])
        return OFXTag(name: name, value: OFXEntities.unescape(value.trimmingWhitespace(newlines: true)), line: tagLine)
    }

    /// One unit on (a line break's units at once); at the end it stays there (a tag may be cut off by the file's end).
    private mutating func advance() {
        guard index < units.count else { return }
        if let lineBreak = units.lineBreak(at: index) {
            line += 1
            index += lineBreak
        } else {
            index += 1
        }
    }
}

/// OFX's character references.
enum OFXEntities {
    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&nbsp;` and numeric references; anything else stays as written.
    static func unescape(_ text: String) -> String {
        // Without an `&` byte there is no `&` character either.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.prefix(10).firstIndex(of: ";") else {
                result.append("&")
                rest = rest.dropFirst()
                continue
            }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            if let replacement = entity(name) {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func entity(_ name: Substring) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            guard name.hasPrefix("#"), let code = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                let scalar = Unicode.Scalar(code), code != 0
            else { return nil }
            return String(scalar)
        }
    }
}
