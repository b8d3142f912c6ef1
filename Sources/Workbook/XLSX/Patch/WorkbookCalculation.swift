import Foundation

/// The workbook part's share of a patch: defined names that point into rows that moved follow
/// them, and `fullCalcOnLoad` makes the spreadsheet recompute every formula on open (the
/// calculation chain, which named the old cells, is dropped by `PreservingPlan`).
enum WorkbookCalculation {
    /// Children of `<workbook>` that come after `<calcPr>`, where a new one goes before them.
    static let after = [
        "oleSize", "customWorkbookViews", "pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing",
        "fileRecoveryPr", "webPublishObjects", "extLst",
    ]

    static func edit(_ plan: inout PreservingPlan, patches: [WorksheetPatch]) throws {
        let part = plan.layout.workbookPart
        var text = try plan.edited[part] ?? plan.text(of: part)
        for patch in patches where patch.shift.movesRows || patch.shift.appended > 0 {
            text = definedNames(text, shifter: ReferenceShifter(sheet: patch.sheet, shift: patch.shift))
        }
        var editor = XMLTextEditor(text: text)
        if try editor.startTag("calcPr") != nil {
            try editor.setAttribute("fullCalcOnLoad", to: "1", on: "calcPr")
        } else {
            let prefix = try editor.startTag("sheets")?.prefix ?? ""
            let element = "<\(prefix)calcPr fullCalcOnLoad=\"1\"/>"
            var text = editor.text
            let place =
                try after.lazy.compactMap { try editor.startTag($0)?.range.lowerBound }.first
                ?? editor.endTagStart("workbook", prefix: prefix)
            guard let place else { throw plan.refuse(part, "has no </workbook> end tag") }
            text.insert(contentsOf: element, at: place)
            editor = XMLTextEditor(text: text)
        }
        if editor.text != (try plan.text(of: part)) { plan.markEdited(part, editor.text) }
    }

    /// Each `<definedName>`'s references into the patched sheet, moved (and grown with appended
    /// rows when they end on the table's last row, as the autofilter's hidden name does).
    static func definedNames(_ text: String, shifter: ReferenceShifter) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "definedName") {
            guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">") else { break }
            let isStart = rest[..<open.lowerBound].hasSuffix("<") || rest[..<open.lowerBound].last == ":"
            out += rest[...tagEnd]
            rest = rest[rest.index(after: tagEnd)...]
            guard isStart, rest.first != "<", !out.hasSuffix("/>"), let close = rest.firstIndex(of: "<") else { continue }
            let formula = XMLEntities.unescape(String(rest[..<close]))
            let moved = shifter.formula(formula, inSheet: false, grows: true)
            out += moved == formula ? String(rest[..<close]) : XMLEntities.escape(moved)
            rest = rest[close...]
        }
        return out + rest
    }
}
