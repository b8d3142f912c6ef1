import SheetSyncCore
import Workbook

/// The CSV reader, the tab reader over what it read, and the CSV writer's round trip.
enum CSVTargets {
    static let seenAt = Timestamp(millisecondsSinceEpoch: 1_790_000_000_000)

    static func read(_ bytes: UnsafeRawBufferPointer) {
        guard let file = try? CSVReader.parse(bytes, source: "Fuzz.csv") else { return }
        readTabs(file.table)
    }

    /// Reads `table` as each of the five tabs. A header no tab accepts would stop the reader at the
    /// header, so the rows are also read under each tab's own header to reach the field parsers.
    static func readTabs(_ table: Table) {
        for tab in Tab.allCases {
            let schema = tab.schema
            if (try? TabReader.read(table, schema: schema, seenAt: seenAt)) == nil {
                var renamed = table
                renamed.header = schema.fields.map(\.header)
                _ = try? TabReader.read(renamed, schema: schema, seenAt: seenAt)
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
