/// The parts beside a worksheet that point at its rows: comments (and their VML shapes),
/// threaded comments and tables. They move with the rows, and are otherwise left as they were.
enum RelatedParts {
    static func edit(package: XLSXPackage, sheetPart: String, patch: WorksheetPatch, plan: inout PreservingPlan) throws {
        guard patch.shift.movesRows || patch.shift.appended > 0 else { return }
        let references = SheetReferences(shifter: ReferenceShifter(sheet: patch.sheet, shift: patch.shift))
        for relationship in try package.relationships(of: sheetPart) {
            guard let target = relationship.target, package.contains(target) else { continue }
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
}

/// The note shapes of a legacy VML drawing, anchored by row (`<x:Row>`, 0-based) and by
/// `<x:Anchor>` (column, offset, row, offset, column, offset, row, offset).
struct VMLAnchors {
    let shift: RowShift

    /// The drawing with each shape moved to its row's new place, and shapes on deleted rows dropped.
    func edit(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "<v:shape ") ?? rest.range(of: "<v:shape>") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.lowerBound...].range(of: "</v:shape>") else { break }
            let shape = rest[start.lowerBound..<end.upperBound]
            rest = rest[end.upperBound...]
            out += move(shape) ?? ""
        }
        return out + rest
    }

    private func move(_ shape: Substring) -> String? {
        guard let open = shape.range(of: "<x:Row>"), let close = shape.range(of: "</x:Row>", range: open.upperBound..<shape.endIndex),
            let old = Int(shape[open.upperBound..<close.lowerBound].trimmingCharacters(in: " \n\r\t"))
        else { return String(shape) }
        guard let new = shift.row(old + 1) else { return nil }
        let delta = new - (old + 1)
        guard delta != 0 else { return String(shape) }
        var text = String(shape[..<open.upperBound]) + String(new - 1) + String(shape[close.lowerBound...])
        if let a = text.range(of: "<x:Anchor>"), let b = text.range(of: "</x:Anchor>", range: a.upperBound..<text.endIndex) {
            var numbers = text[a.upperBound..<b.lowerBound].split(separator: ",").map { $0.trimmingCharacters(in: " \n\r\t") }
            if numbers.count == 8 {
                for index in [2, 6] { numbers[index] = Int(numbers[index]).map { String(max(0, $0 + delta)) } ?? numbers[index] }
                text.replaceSubrange(a.upperBound..<b.lowerBound, with: numbers.joined(separator: ", "))
            }
        }
        return text
    }
}
