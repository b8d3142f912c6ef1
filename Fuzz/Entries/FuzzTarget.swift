import Foundation
import Statements

/// The readers and round trips the fuzzers drive, one libFuzzer executable each (`Fuzz/Package.swift`).
///
/// The entry points live here, in a library of the root package, so that the normal test suite
/// (`Tests/FuzzRegressionTests`) feeds every committed crash input to exactly the code the fuzzer ran,
/// without a sanitizer; `Fuzz/` only wraps them in `LLVMFuzzerTestOneInput`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The CSV scanner, then the tab reader of every tab over the table it read.
    case csv
    /// A whole `.xlsx` file (zip container and all parts) through the reader and the tab reader.
    case xlsxPackage = "xlsx-package"
    /// One XML part (worksheet, shared strings, styles or workbook) inside a fixed valid package,
    /// so that mutations reach the XML handlers instead of dying in the zip layer.
    case xlsxPart = "xlsx-part"
    /// The field parsers (dates, timestamps, amounts, booleans, integers, UUIDs) and the writers'
    /// canonical text, which must read back as itself.
    case fields
    /// The config loader (`Config.load`).
    case config
    /// The JSON parser that keeps number text, and every decoder of Google's responses.
    case googleJSON = "google-json"
    /// CSV parse → write → parse must give the same file; the streaming writer must match.
    case csvRoundTrip = "csv-roundtrip"
    /// XLSX write → read must give the same cells (up to the documented normalisations).
    case xlsxRoundTrip = "xlsx-roundtrip"
    /// The terminal sanitizer (`TerminalText`): nothing made visible acts on a terminal.
    case terminalText = "terminal-text"
    /// Bank statements: OFX/QFX (SGML and XML), QIF, CAMT.053 and a bank's CSV export, each reader on its own.
    case ofx
    case qif
    case camt
    case statementCSV = "statement-csv"

    /// Runs one input; throws when a property the target checks does not hold.
    ///
    /// Inputs a reader refuses are fine (refusing is the reader's job); a crash, a hang or a
    /// violated property is a bug.
    public func run(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        switch self {
        case .csv: try CSVTargets.read(bytes)
        case .xlsxPackage: XLSXTargets.readPackage(bytes)
        case .xlsxPart: XLSXTargets.readPart(bytes)
        case .fields: try FieldTargets.run(bytes)
        case .config: ConfigTarget.run(bytes)
        case .googleJSON: try GoogleJSONTarget.run(bytes)
        case .csvRoundTrip: try CSVTargets.roundTrip(bytes)
        case .xlsxRoundTrip: try XLSXRoundTrip.run(bytes)
        case .terminalText: try TerminalTextTarget.run(bytes)
        case .ofx: try StatementTargets.run(bytes, format: .ofx)
        case .qif: try StatementTargets.run(bytes, format: .qif)
        case .camt: try StatementTargets.run(bytes, format: .camt053)
        case .statementCSV: try StatementTargets.run(bytes, format: .csv)
        }
    }

    /// Runs one input given as an array (the regression tests' form).
    public func run(_ bytes: [UInt8]) throws(PropertyViolation) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PropertyViolation) in try run(buffer) }
        }
        try result.get()
    }

    /// The body of `LLVMFuzzerTestOneInput`: a violated property traps, so libFuzzer saves the input.
    public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
        let bytes = UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)
        do {
            try run(bytes)
        } catch {
            fatalError("\(rawValue): \(error.description)")
        }
        return 0
    }
}

/// A property a fuzz target checks that did not hold for an input.
public struct PropertyViolation: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) { self.description = description }
}
