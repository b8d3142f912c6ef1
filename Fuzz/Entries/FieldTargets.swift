import SheetSyncCore
import SheetValues
import Workbook

/// The field parsers, checked against the text sheetsync writes back.
///
/// The store keeps a field's canonical text and writes it back to the sheet, as text (CSV) or as a
/// typed cell (XLSX, Sheets); reading that back must give the same text, or a sync would change the
/// user's data on its own. So every value a parser accepts is written back both ways and re-read.
enum FieldTargets {
    /// One spec per kind of field the five tabs hold.
    static let specs: [FieldSpec] = {
        var seen: Set<FieldKind> = []
        var specs: [FieldSpec] = []
        for tab in Tab.allCases {
            for field in tab.schema.fields where seen.insert(field.kind).inserted {
                specs.append(field)
            }
        }
        return specs
    }()

    /// Every ledger's reading of dates and amounts typed as text.
    static let allForms = LocalForms.DateOrder.allCases.flatMap { order in
        LocalForms.DecimalSeparator.allCases.map { LocalForms(dateOrder: order, decimalSeparator: $0) }
    }

    /// The byte-level fast paths answer only with the tolerant parser's own answer, under `forms`.
    static func checkReadings(_ bytes: UnsafeRawBufferPointer, _ forms: LocalForms) throws(PropertyViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let cells: [Cell] = [.text(text), .number(text), .dateSerial(text), .error(text)]
        for spec in specs {
            for cell in cells {
                let read = FieldParser.canonical(cell, spec, forms), tolerant = FieldParser.canonicalTolerantly(cell, spec, forms)
                guard read == tolerant else {
                    throw PropertyViolation("\(spec.header) (\(spec.kind)): \(cell) reads as \(read), tolerantly as \(tolerant)")
                }
                guard case .success(let value) = read, !value.isEmpty else { continue }
                try checkStoreAccepts(value, spec)
                try checkWritesBack(value, spec)
            }
        }
        // What `PlainRows` checks on a cell's bytes answers only where the fast parser does.
        guard !bytes.isEmpty else { return }
        for spec in specs {
            guard let rule = FieldParser.FastRule(spec.kind, forms),
                FieldParser.readsFast(bytes.assumingMemoryBound(to: UInt8.self), rule)
            else { continue }
            guard let canonical = FieldParser.canonicalFast(.text(text), spec.kind, forms) else {
                throw PropertyViolation("\(spec.header): '\(text)' reads fast on its bytes, not as text")
            }
            // What a first pull's load stores for the cell (`PlainLoad`): the same text. (A CSV
            // cell is valid UTF-8: the reader refuses any other file.)
            guard text.utf8.elementsEqual(bytes) else { continue }
            var loaded: [UInt8] = []
            guard FieldParser.appendCanonical(bytes.assumingMemoryBound(to: UInt8.self), spec.kind, forms, to: &loaded),
                loaded.elementsEqual(canonical.utf8)
            else {
                throw PropertyViolation(
                    "\(spec.header): '\(text)' loads as '\(String(decoding: loaded, as: UTF8.self))', reads as '\(canonical)'")
            }
        }
    }

    static func run(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        for forms in allForms { try checkReadings(bytes, forms) }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = FieldParser.canonicalUUID(text)
        _ = FieldParser.displayedDate(text)
        _ = DisplayedNumber.canonical(text)
        _ = DateSerial.stored(text, uses1904: true)
        _ = DateSerial.stored(text, uses1904: false)
        if case .success(let amount) = Amount.parse(text) {
            guard case .success(let again) = Amount.parse(amount.description), again == amount else {
                throw PropertyViolation("amount '\(text)' reads as \(amount), which does not read back as itself")
            }
        }
        if let date = LocalDate(iso: text), LocalDate(iso: date.description) != date {
            throw PropertyViolation("date '\(text)' reads as \(date), which does not read back as itself")
        }
        if let time = Timestamp(iso: text), Timestamp(iso: time.description) != time {
            throw PropertyViolation("timestamp '\(text)' reads as \(time), which does not read back as itself")
        }
        try TerminalTextTarget.check(text)
    }

    /// Canonical values of typed kinds are ASCII in the store's forms (its CHECK constraints refuse
    /// anything else, and a refused row stopped every sync): a UUID is 36 lowercase hex digits and dashes.
    static func checkStoreAccepts(_ value: String, _ spec: FieldSpec) throws(PropertyViolation) {
        switch spec.kind {
        case .uuid:
            guard value.utf8.count == 36, value.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) else {
                throw PropertyViolation("\(spec.header): '\(value)' is accepted as a UUID but is not one the store takes")
            }
        case .date, .timestamp, .amount, .integer, .boolean, .enumeration:
            guard value.utf8.allSatisfy({ $0 < 0x80 }) else {
                throw PropertyViolation("\(spec.header): canonical '\(value)' is not ASCII")
            }
        case .text, .freeText:
            break
        }
    }

    /// Canonical `value` written as a CSV cell and as a typed cell must both read back as `value`,
    /// also after a spreadsheet stored the typed cell's number as a double (what XLSX and Sheets
    /// readers give back: `DisplayedNumber`, 15 significant digits).
    static func checkWritesBack(_ value: String, _ spec: FieldSpec) throws(PropertyViolation) {
        for typed in [false, true] {
            let cell = FieldParser.cell(value, spec, typed: typed)
            var written = [cell]
            switch cell {
            case .number(let text): written.append(.number(DisplayedNumber.canonical(text)))
            case .dateSerial(let text): written.append(.dateSerial(DisplayedNumber.canonical(text)))
            default: break
            }
            for cell in written {
                let again = FieldParser.canonical(cell, spec)
                guard case .success(value) = again else {
                    throw PropertyViolation(
                        "\(spec.header) (\(spec.kind)): canonical '\(value)' written as \(cell) reads back as \(again)")
                }
            }
        }
    }
}
