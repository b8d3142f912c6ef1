import Foundation

/// The parts beside a worksheet that point at its rows: comments (and their VML shapes),
/// threaded comments and tables. They move with the rows, and are otherwise left as they were.
enum RelatedParts {
    static func edit(package: XLSXPackage, sheetPart: String, patch: WorksheetPatch, plan: inout PreservingPlan) throws {
        guard patch.shift.movesRows || patch.shift.appended > 0 else { return }
        let references = SheetReferences(shifter: ReferenceShifter(sheet: patch.sheet, shift: patch.shift))
        for relationship in try package.relationships(of: sheetPart) where isEdited(relationship, movesRows: patch.shift.movesRows) {
            // Only the links edited here are judged: a drawing, a hyperlink or a printer setting
            // pointing outside the package is not followed, and its `.rels` part is copied as it was.
            guard let target = try relationship.followed(file: package.fileName), package.contains(target) else { continue }
            if relationship.isType("comments") || relationship.isType("threadedComment") || relationship.isType("table") {
                let text = try plan.text(of: target)
                let edited = references.edit(text)
                if edited != text { plan.markEdited(target, edited) }
            } else if relationship.isType("vmlDrawing"), patch.shift.movesRows {
                let text = try plan.text(of: target)
                let edited = VMLAnchors(shift: patch.shift).edit(text)
                if edited != text { plan.markEdited(target, edited) }
            }
        }
    }

    /// Whether `edit` reads and edits the part `relationship` leads to.
    static func isEdited(_ relationship: Relationship, movesRows: Bool) -> Bool {
        relationship.isType("comments") || relationship.isType("threadedComment") || relationship.isType("table")
            || (relationship.isType("vmlDrawing") && movesRows)
    }
}

/// The note shapes of a legacy VML drawing, anchored by row (`<x:Row>`, 0-based) and by
/// `<x:Anchor>` (column, offset, row, offset, column, offset, row, offset); prefixes vary by
/// producer (`v:`/`x:` from Excel, `ns1:`/`ns2:` from openpyxl).
struct VMLAnchors {
    let shift: RowShift

    /// The drawing with each shape moved to its row's new place, and shapes on deleted rows dropped.
    func edit(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstMatch(of: /<([A-Za-z0-9_]+:)?shape[\s>]/) {
            out += rest[..<open.range.lowerBound]
            let closing = "</\(open.output.1 ?? "")shape>"
            guard let end = rest[open.range.lowerBound...].range(of: closing) else { break }
            let shape = rest[open.range.lowerBound..<end.upperBound]
            rest = rest[end.upperBound...]
            out += move(shape) ?? ""
        }
        return out + rest
    }

    private func move(_ shape: Substring) -> String? {
        guard let row = shape.firstMatch(of: /<([A-Za-z0-9_]+:)?Row>\s*(\d+)\s*<\//), let old = Int(row.output.2) else {
            return String(shape)
        }
        guard let new = shift.row(old + 1) else { return nil }
        let delta = new - (old + 1)
        guard delta != 0 else { return String(shape) }
        var text = String(shape[..<row.output.2.startIndex]) + String(new - 1) + String(shape[row.output.2.endIndex...])
        if let anchor = text.firstMatch(of: /<([A-Za-z0-9_]+:)?Anchor>([^<]*)<\//) {
            var numbers = anchor.output.2.split(separator: ",").map { $0.trimmingCharacters(in: " \n\r\t") }
            if numbers.count == 8 {
                for index in [2, 6] { numbers[index] = Int(numbers[index]).map { String(max(0, $0 + delta)) } ?? numbers[index] }
                text.replaceSubrange(anchor.output.2.startIndex..<anchor.output.2.endIndex, with: numbers.joined(separator: ", "))
            }
        }
        return text
    }
}
