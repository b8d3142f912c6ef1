import Foundation
import SheetValues

/// Reads RFC 4180 CSV from bytes into a `CSVFile`.
///
/// Accepts quoted fields with embedded commas, doubled quotes and CR/LF/CRLF; CRLF, LF or a
/// lone CR between records; a UTF-8 BOM (remembered); a last record with or without a line
/// ending. Refuses input that is not UTF-8 and a quote that is never closed.
public enum CSVReader {
    /// Parses `bytes`; `source` names the file in error messages, e.g. `Transactions.csv`.
    public static func parse(_ bytes: UnsafeRawBufferPointer, source: String) throws -> CSVFile {
        var parser = CSVParser(bytes: bytes.assumingMemoryBound(to: UInt8.self), source: source)
        return try parser.run()
    }

    /// Parses `bytes`; `source` names the file in error messages, e.g. `Transactions.csv`. `observer`,
    /// given the header, makes the observer that sees every data row as it is read, handed over with
    /// the table (`Table.takeObservation`).
    public static func parse(
        _ bytes: [UInt8], source: String, observer: (([String]) -> (any RowObserver)?)? = nil
    ) throws -> CSVFile {
        // The rows stay as these bytes (shared, not copied) and are decoded when asked for.
        var file = try bytes.withUnsafeBufferPointer { pointer in
            var parser = CSVParser(bytes: pointer, source: source, owner: bytes)
            return try parser.run(observer: observer)
        }
        file.source = bytes  // shared, not copied: a rewrite copies unchanged rows from it
        return file
    }

    /// Reads and parses the file at `url`; errors name it by its last path component.
    public static func read(contentsOf url: URL) throws -> CSVFile {
        guard let read = try readIfPresent(url) else {
            throw CSVError(file: url.lastPathComponent, problem: .unreadable(reason: "no such file"))
        }
        return read.file
    }

    /// Reads the file at `url` with the fingerprint of exactly the bytes parsed, to pass to
    /// `AtomicFile.replace(expecting:)` later; nil when there is no such file.
    ///
    /// Prefer this to `FileFingerprint.of` followed by `read(contentsOf:)`: a save between
    /// those two calls would pair a fingerprint with content it does not describe.
    public static func readIfPresent(
        _ url: URL, observer: (([String]) -> (any RowObserver)?)? = nil
    ) throws -> (file: CSVFile, fingerprint: FileFingerprint)? {
        let name = url.lastPathComponent
        let snapshot: FileSnapshot?
        do {
            snapshot = try FileSnapshot.read(url)
        } catch let error as AtomicFileError {
            // A symlink, FIFO or device in the tab's place is refused as such (`FileSafety`): never read.
            if case .notAFile = error { throw error }
            // Named by its whole path: a permission or a folder in its place is fixed there.
            throw CSVError(file: url.path, problem: .unreadable(reason: error.reason))
        }
        guard let snapshot else { return nil }
        return (try parse(snapshot.bytes, source: name, observer: observer), snapshot.fingerprint)
    }
}
