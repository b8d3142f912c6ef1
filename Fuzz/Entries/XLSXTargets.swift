import Foundation
import SheetSyncCore
import Workbook

/// The XLSX reader, fed a whole file or one part of an otherwise valid package.
enum XLSXTargets {
    static func readPackage(_ bytes: UnsafeRawBufferPointer) {
        guard let url = FuzzScratch.write(bytes, named: "Fuzz.xlsx") else { return }
        defer { FuzzScratch.remove(url) }
        read(url)
    }

    /// The first byte picks the part (see `FuzzPackage.Part`); the rest is that part's XML.
    static func readPart(_ bytes: UnsafeRawBufferPointer) {
        guard let selector = bytes.first else { return }
        let part = FuzzPackage.Part.allCases[Int(selector) % FuzzPackage.Part.allCases.count]
        guard let package = FuzzPackage.zip(replacing: part, with: Array(bytes.dropFirst())) else { return }
        let url = FuzzScratch.url("FuzzPart.xlsx")
        defer { FuzzScratch.remove(url) }
        do {
            try package.write(to: url)
        } catch {
            return
        }
        read(url)
    }

    /// What `sheetsync` does with a workbook: list its sheets, read them, read each tab among them.
    static func read(_ url: URL) {
        _ = try? XLSXReader.sheetNames(contentsOf: url)
        guard let contents = try? XLSXReader.readWithWarnings(contentsOf: url) else { return }
        for sheet in contents.sheets {
            CSVTargets.readTabs(sheet.table)
        }
    }
}
