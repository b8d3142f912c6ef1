import Foundation

/// Moves the row references outside `<sheetData>` when rows move: the dimension, merged cells,
/// hyperlinks, validation and conditional-format ranges and formulas, the autofilter, and the
/// `ref`s of the comments and tables parts that belong to the sheet.
struct SheetReferences {
    let shifter: ReferenceShifter
    /// The other sheets whose rows the same push moves: validation and conditional-format
    /// formulas that name them (`Receipts!$A$2:$A$9`) follow their rows too.
    var others: [ReferenceShifter] = []

    /// Elements that grow with appended rows (a range ending on the table's last row).
    static let growing: Set<String> = [
        "dimension", "autoFilter", "dataValidation", "conditionalFormatting", "table", "sqref", "protectedRange",
    ]
    /// Elements that go when their cell is deleted.
    static let removable: Set<String> = ["mergeCell", "hyperlink", "comment", "threadedComment"]
    /// Elements whose text is a formula.
    static let formulas: Set<String> = ["formula", "formula1", "formula2", "f"]

    /// `text` with every `ref`/`sqref` attribute and formula text moved.
    func edit(_ text: String) -> String {
        guard shifter.shift.movesRows || shifter.shift.appended > 0 || !others.isEmpty else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[open...close]
            rest = rest[rest.index(after: close)...]
            let name = Self.localName(tag)
            if Self.formulas.contains(name), !tag.hasSuffix("/>"), let end = rest.range(of: "</") {
                out += tag
                let formula = XMLEntities.unescape(String(rest[..<end.lowerBound]))
                let own = shifter.shift.movesRows ? shifter.formula(formula, inSheet: true) : formula
                let moved = others.reduce(own) { $1.formula($0, inSheet: false) }
                out += moved == formula ? String(rest[..<end.lowerBound]) : XMLEntities.escape(moved)
                rest = rest[end.lowerBound...]
                continue
            }
            if name == "sqref", !tag.hasPrefix("</"), !tag.hasSuffix("/>"), let end = rest.range(of: "</") {
                out += tag
                let list = String(rest[..<end.lowerBound])
                out += shifter.rangeList(list, grows: true) ?? list
                rest = rest[end.lowerBound...]
                continue
            }
            if let edited = editTag(tag, name: name) {
                out += edited
            } else if !tag.hasSuffix("/>") {
                // A comment on a deleted row goes with its row.
                let qualified = String(tag.dropFirst().prefix { $0 != " " && $0 != ">" && $0 != "/" })
                if let end = rest.range(of: "</\(qualified)>") { rest = rest[end.upperBound...] }
            }
        }
        return out + rest
    }

    /// The tag with its `ref`/`sqref` moved; nil to drop an element whose cells are all gone.
    func editTag(_ tag: Substring, name: String) -> String? {
        guard !tag.hasPrefix("</"), !tag.hasPrefix("<?"), !tag.hasPrefix("<!"), tag.contains("ref=") else { return String(tag) }
        var attributes = TagAttributes(tag: tag)
        var changed = false
        for key in ["ref", "sqref"] {
            guard let value = attributes[key] else { continue }
            guard let moved = shifter.rangeList(value, grows: Self.growing.contains(name)) else {
                if Self.removable.contains(name) { return nil }
                continue
            }
            if moved != value {
                attributes[key] = moved
                changed = true
            }
        }
        guard changed else { return String(tag) }
        let head = tag.prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != ">" && $0 != "/" }
        return head + attributes.text + (tag.hasSuffix("/>") ? "/>" : ">")
    }

    /// The local name of a tag (`<x:mergeCell ref=…/>` → `mergeCell`).
    static func localName(_ tag: Substring) -> String {
        let name = tag.dropFirst().prefix { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" && $0 != ">" && $0 != "/" }
        return String(name.split(separator: ":").last ?? "")
    }
}
