/// The text edits a preserving write makes to the workbook's small parts.
extension PreservingPlan {
    static let transitionalRelationships = PackageParts.relationshipsNamespace
    static let strictRelationships = "http://purl.oclc.org/ooxml/officeDocument/relationships"
    static let stylesContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"

    /// Finds or adds the date styles; adds a styles part when the workbook has none.
    mutating func prepareStyles() throws {
        guard let part = layout.stylesPart, package.contains(part) else {
            let part = workbookFolder + "styles.xml"
            markAdded(part, PackageParts.styles)
            _ = addRelationship(type: relationshipType("styles"), target: "styles.xml")
            pendingOverrides.append((part, Self.stylesContentType))
            useDateStyles(PackageParts.freshDateStyles)
            return
        }
        let survey = StylesEditor.Survey()
        try package.parse(part, with: survey)
        var editor = StylesEditor(survey: survey, text: try text(of: part))
        do {
            let (styles, changed) = try editor.dateStyles()
            useDateStyles(styles)
            if changed { pendingStylesEdit = (part, editor.text) }
            if changed, !deferStylesEdit { commitStylesEdit() }
        } catch let problem as WorksheetProblem {
            throw refuse(part, problem.message + " (cannot add date styles)")
        }
    }

    /// Lists the added sheets in the workbook part.
    mutating func editWorkbook() throws {
        guard !newSheets.isEmpty else { return }
        let part = layout.workbookPart
        var editor = XMLTextEditor(text: try text(of: part))
        var nextSheetID = (layout.sheets.map(\.sheetID).max() ?? 0) + 1
        let namespace = strict ? Self.strictRelationships : Self.transitionalRelationships
        let boundPrefix = editor.prefix(boundTo: [Self.transitionalRelationships, Self.strictRelationships])
        guard let sheetsTag = try editor.startTag("sheets") else { throw refuse(part, "has no <sheets> element") }
        var elements = ""
        for (name, sheetPart) in newSheets {
            let target = String(sheetPart.dropFirst(workbookFolder.count))
            let id = addRelationship(type: relationshipType("worksheet"), target: target)
            let reference = boundPrefix.map { #"\#($0):id="\#(id)""# } ?? #"xmlns:sr="\#(namespace)" sr:id="\#(id)""#
            elements += #"<\#(sheetsTag.prefix)sheet name="\#(XMLText.attribute(name))" sheetId="\#(nextSheetID)" \#(reference)/>"#
            nextSheetID += 1
            pendingOverrides.append((sheetPart, PackageParts.worksheetContentType))
        }
        guard try editor.appendChildren(elements, to: "sheets") else { throw refuse(part, "has no <sheets> element") }
        markEdited(part, editor.text)
    }

    /// Adds the pending relationships to the workbook's relationships part, dropping the calc chain.
    mutating func editWorkbookRelationships(droppingCalcChain: Bool) throws {
        guard droppingCalcChain || !pendingRelationships.isEmpty else { return }
        let part = PartPath.relationshipsPart(of: layout.workbookPart)
        var editor = XMLTextEditor(text: try text(of: part))
        if droppingCalcChain {
            try editor.removeEmptyElements("Relationship") { $0.contains("/calcChain\"") || $0.contains("/calcChain'") }
        }
        let elements = pendingRelationships.map {
            #"<Relationship Id="\#($0.id)" Type="\#($0.type)" Target="\#(XMLText.attribute($0.target))"/>"#
        }.joined()
        if !elements.isEmpty, try !editor.appendChildren(elements, to: "Relationships") {
            throw refuse(part, "has no <Relationships> element")
        }
        markEdited(part, editor.text)
    }

    /// Declares the content types of added parts and forgets the dropped calc chain.
    mutating func editContentTypes(droppingCalcChain calcChain: String?) throws {
        guard calcChain != nil || !pendingOverrides.isEmpty else { return }
        let part = "[Content_Types].xml"
        var editor = XMLTextEditor(text: try text(of: part))
        if let calcChain {
            let name = "/" + calcChain.lowercased()
            try editor.removeEmptyElements("Override") {
                $0.lowercased().contains("\"\(name)\"") || $0.lowercased().contains("'\(name)'")
            }
        }
        let elements = pendingOverrides.map {
            #"<Override PartName="/\#(XMLText.attribute($0.part))" ContentType="\#($0.contentType)"/>"#
        }.joined()
        if !elements.isEmpty, try !editor.appendChildren(elements, to: "Types") {
            throw refuse(part, "has no <Types> element")
        }
        markEdited(part, editor.text)
    }

    /// Whether the workbook uses Strict relationship types (then new relationships must too).
    var strict: Bool {
        layout.workbookRelationships.contains { $0.type.hasPrefix("http://purl.oclc.org/ooxml/") }
    }

    func relationshipType(_ name: String) -> String {
        (strict ? Self.strictRelationships : Self.transitionalRelationships) + "/" + name
    }
}
