/// Finds, or adds, the `yyyy-mm-dd` and `yyyy-mm-dd hh:mm:ss` cell styles in a workbook's own
/// styles part, so rewritten sheets can show dates without disturbing the user's styles.
///
/// Plain styles already there (from a previous push) are reused, so pushes do not pile up styles.
struct StylesEditor {
    /// What the styles part holds, as far as date styles are concerned.
    final class Survey: XMLEventHandler {
        private(set) var formats: [Int: String] = [:]
        /// Per cell style: its number format id, and whether it has no font, fill or border of its own.
        private(set) var cellStyles: [(formatID: Int, plain: Bool)] = []
        private var inCellXfs = false
        private var inNumFmts = false

        func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
            if name == "numFmt" {
                if inNumFmts, let id = attributes.string("numFmtId").flatMap(Int.init), let code = attributes.string("formatCode") {
                    formats[id] = code
                }
            } else if name == "cellXfs" {
                inCellXfs = true
            } else if name == "numFmts" {
                inNumFmts = true
            } else if name == "xf" && inCellXfs {
                let plain = ["fontId", "fillId", "borderId"].allSatisfy { (attributes.string($0) ?? "0") == "0" }
                cellStyles.append((attributes.string("numFmtId").flatMap(Int.init) ?? 0, plain))
            }
        }

        func endElement(_ name: XMLName) throws {
            if name == "cellXfs" { inCellXfs = false }
            if name == "numFmts" { inNumFmts = false }
        }

        func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
    }

    var survey: Survey
    var text: String

    /// The date styles, adding them to `text` when the part lacks them; `edited` tells whether it did.
    mutating func dateStyles() throws -> (styles: DateStyles, edited: Bool) {
        var editor = XMLTextEditor(text: text)
        var newFormats: [(Int, String)] = []
        var newStyles: [Int] = []
        var nextFormatID = max(163, survey.formats.keys.max() ?? 0) + 1
        var styleCount = survey.cellStyles.count

        func styleIndex(for code: String) -> Int {
            let formatID: Int
            if let existing = survey.formats.first(where: { $0.value == code })?.key {
                if let index = survey.cellStyles.firstIndex(where: { $0.formatID == existing && $0.plain }) {
                    return index
                }
                formatID = existing
            } else {
                formatID = nextFormatID
                nextFormatID += 1
                newFormats.append((formatID, code))
            }
            newStyles.append(formatID)
            styleCount += 1
            return styleCount - 1
        }

        let styles = DateStyles(
            date: styleIndex(for: PackageParts.dateFormatCode),
            dateTime: styleIndex(for: PackageParts.dateTimeFormatCode))
        guard !newStyles.isEmpty else { return (styles, false) }

        guard let styleSheet = try editor.startTag("styleSheet") else {
            throw WorksheetProblem(message: "has no <styleSheet> element")
        }
        let prefix = styleSheet.prefix
        if !newFormats.isEmpty {
            let entries = newFormats.map { #"<\#(prefix)numFmt numFmtId="\#($0.0)" formatCode="\#($0.1)"/>"# }.joined()
            if try editor.startTag("numFmts") != nil {
                _ = try editor.appendChildren(entries, to: "numFmts")
                try editor.setAttribute("count", to: String(survey.formats.count + newFormats.count), on: "numFmts")
            } else {
                let element = #"<\#(prefix)numFmts count="\#(newFormats.count)">\#(entries)</\#(prefix)numFmts>"#
                guard try editor.insertAfterStartTag(element, of: "styleSheet") else {
                    throw WorksheetProblem(message: "has an empty <styleSheet> element")
                }
            }
        }
        let xfs = newStyles.map {
            #"<\#(prefix)xf numFmtId="\#($0)" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>"#
        }.joined()
        guard try editor.appendChildren(xfs, to: "cellXfs") else {
            throw WorksheetProblem(message: "has no <cellXfs> element")
        }
        try editor.setAttribute("count", to: String(styleCount), on: "cellXfs")
        text = editor.text
        return (styles, true)
    }
}
