import SheetSyncCore
import SheetValues
import Workbook

/// The CSV reader, the tab reader over what it read, and the CSV writer's round trip.
enum CSVTargets {
    static let seenAt = Timestamp(millisecondsSinceEpoch: 1_790_000_000_000)

    /// Reads the file both ways the reader can: with every cell made up front (from a pointer) and
    /// with the rows kept as bytes and decoded when asked for (from an owned array, what a sync
    /// uses). Both must accept the same files and give the same rows, cells and row hashes.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        let eager = try? CSVReader.parse(bytes, source: "Fuzz.csv")
        let lazy = try? CSVReader.parse(Array(bytes), source: "Fuzz.csv")
        guard let eager, let lazy else {
            if (eager == nil) != (lazy == nil) { throw PropertyViolation("one way of reading refuses the file, the other reads it") }
            return
        }
        try same(lazy.table, eager.table)
        try inParts(bytes, lazy)
        for (table, schema, rows) in readTabs(lazy.table) { try plainRowsLoadAsTheyAre(table, rows: rows, schema: schema) }
    }

    /// The file read in parts side by side (cut after every few bytes, as a big file is cut after
    /// every MiB) is the file read in one pass.
    static func inParts(_ bytes: UnsafeRawBufferPointer, _ whole: CSVFile) throws(PropertyViolation) {
        let parts = RowParts.$bytesPerPart.withValue(1) {
            RowParts.$cores.withValue(3) { try? CSVReader.parse(Array(bytes), source: "Fuzz.csv") }
        }
        guard let parts else { throw PropertyViolation("read in parts, the file is refused; in one pass it reads") }
        guard parts == whole, parts.table == whole.table, parts.table.damagedRows == whole.table.damagedRows,
            parts.table.refusedRows == whole.table.refusedRows, parts.source == whole.source,
            CSVWriter.encode(patching: parts, with: TableChanges()) == CSVWriter.encode(patching: whole, with: TableChanges())
        else { throw PropertyViolation("read in parts, the file reads otherwise than in one pass") }
    }

    static func same(_ lazy: Table, _ eager: Table) throws(PropertyViolation) {
        guard lazy.header == eager.header, lazy.rowCount == eager.rows.count, lazy.damagedRows == eager.damagedRows,
            lazy.refusedRows == eager.refusedRows
        else { throw PropertyViolation("the lazily decoded table's header, row count or row problems differ") }
        let seed = RowHash.seed(header: eager.header)
        for (index, cells) in eager.rows.enumerated() {
            guard lazy.row(index) == cells else { throw PropertyViolation("row \(index) decodes differently") }
            guard lazy.rowHash(index, seed: seed) == RowHash.of(cells, seed: seed) else {
                throw PropertyViolation("row \(index) hashes differently from its bytes")
            }
            for column in 0...cells.count where lazy.cell(row: index, column: column) != (column < cells.count ? cells[column] : .empty) {
                throw PropertyViolation("row \(index), column \(column) decodes differently alone")
            }
        }
    }

    /// Reads `table` as each of the five tabs. A header no tab accepts would stop the reader at the
    /// header, so the rows are also read under each tab's own header to reach the field parsers.
    /// Returns each tab's table as read (under its own header when needed) with the rows read.
    @discardableResult
    static func readTabs(_ table: Table) -> [(table: Table, schema: TabSchema, rows: [SheetRow])] {
        var read: [(table: Table, schema: TabSchema, rows: [SheetRow])] = []
        for tab in Tab.allCases {
            let schema = tab.schema
            if let rows = try? TabReader.read(table, schema: schema, seenAt: seenAt).1 {
                read.append((table, schema, rows))
                continue
            }
            var renamed = table
            renamed.header = schema.fields.map(\.header)
            if let rows = try? TabReader.read(renamed, schema: schema, seenAt: seenAt).1 { read.append((renamed, schema, rows)) }
        }
        return read
    }

    /// Rows `PlainRows` counts as plain (checked on their bytes) are rows the tab reader loads as
    /// records with nothing to fill in or correct; every other row is blank or left to the ordinary
    /// way (`others`), and no row is both.
    static func plainRowsLoadAsTheyAre(_ table: Table, rows: [SheetRow], schema: TabSchema) throws(PropertyViolation) {
        guard let plain = PlainRows.scan(table, schema: schema, now: seenAt) else { return }
        let (plainRows, others) = (Set(plain.indexes), Set(plain.others))
        guard plainRows.count == plain.count, plainRows.isDisjoint(with: others) else {
            throw PropertyViolation("\(schema.tab): a row counts as plain twice, or as plain and not plain")
        }
        for row in rows where !others.contains(row.index) {
            switch row.outcome {
            case .blank where !plainRows.contains(row.index): continue
            case .record(_, let fixes) where fixes.isEmpty && plainRows.contains(row.index): continue
            default:
                let counted = plainRows.contains(row.index) ? "counts as plain" : "is neither plain nor left to the ordinary way"
                throw PropertyViolation("\(schema.tab) row \(row.index) \(counted) but reads as \(row.outcome)")
            }
        }
    }

    /// parse → encode → parse gives the same file, and the streaming writer writes the same bytes
    /// as `encode` whatever its chunk size.
    static func roundTrip(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        guard let file = try? CSVReader.parse(bytes, source: "Fuzz.csv") else { return }
        let encoded = CSVWriter.encode(file)
        let again: CSVFile
        do {
            again = try CSVReader.parse(encoded, source: "Fuzz.csv")
        } catch {
            throw PropertyViolation("the writer's output does not read back: \(error)")
        }
        guard again == file else {
            throw PropertyViolation("parse → write → parse changed the file: \(file) became \(again)")
        }
        guard CSVWriter.encode(again) == encoded else {
            throw PropertyViolation("writing the re-read file gives other bytes")
        }
        // A patch with no change copies every record as read.
        if let patched = CSVWriter.encode(patching: again, with: TableChanges()), patched != encoded {
            throw PropertyViolation("a patch with no change gives other bytes than the file read")
        }
        var streamed: [UInt8] = []
        let chunkSize = 1 + Int(bytes.first ?? 0) % 64
        do {
            try CSVWriter.write(file, chunkSize: chunkSize) { streamed.append(contentsOf: $0) }
        } catch {
            throw PropertyViolation("the streaming writer failed: \(error)")
        }
        guard streamed == encoded else {
            throw PropertyViolation("the streaming writer (chunks of \(chunkSize)) and encode differ")
        }
    }
}
