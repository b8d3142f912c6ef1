import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

#if canImport(Glibc)
    import Glibc
#endif

/// A measurement, not a check: how far a push's patch raises the process's peak memory for a
/// worksheet part of a given size (the patch must stream, not hold the part). Runs only
/// when asked, since it writes hundreds of MiB:
///
///     SHEETSYNC_PATCH_PROBE_MIB=150 swift test --skip-build --filter PatchMemoryProbe
///
/// It builds a workbook whose sheet inflates to about that many MiB, patches one cell, appends a
/// row and deletes one (so every row below is renumbered), and prints the peak before and after.
@Suite struct PatchMemoryProbe {
    static let mebibytes = ProcessInfo.processInfo.environment["SHEETSYNC_PATCH_PROBE_MIB"].flatMap { Int($0) }

    /// The process's peak resident memory since the last `resetPeak`, in MiB (Linux `VmHWM`).
    static func peakMiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.filter(\.isNumber)) ?? 0) / 1024
    }

    /// Starts a new peak from the memory in use now (writing 5 to `clear_refs` resets `VmHWM`).
    static func resetPeak() throws {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func currentMiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.filter(\.isNumber)) ?? 0) / 1024
    }

    /// A one-sheet workbook whose sheet has `rows` rows of a dozen cells (about 300 bytes each).
    static func book(rows: Int) throws -> URL {
        let url = try XLSXTestFiles.scratch("big.xlsx")
        let writer = try PackageWriter(url: url)
        for (name, data) in PartSet.workbook(sheetData: "").parts where name != "xl/worksheets/sheet1.xml" {
            try writer.add(name, data: data)
        }
        try writer.add("xl/worksheets/sheet1.xml") { sink in
            sink.append(#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#)
            for row in 1...rows {
                sink.append(bytes: #"<row r="\#(row)">"#.utf8)
                for column in ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"] {
                    let value = column == "F" ? "\(row).25" : "\(row * 7 % 1000)"
                    sink.append(bytes: #"<c r="\#(column)\#(row)"><v>\#(value)</v></c>"#.utf8)
                }
                sink.append(bytes: "</row>".utf8)
                try sink.flushIfFull()
            }
            sink.append("</sheetData><mergeCells count=\"1\"><mergeCell ref=\"N5:O6\"/></mergeCells></worksheet>")
        }
        try writer.finish()
        return url
    }

    @Test(.enabled(if: PatchMemoryProbe.mebibytes != nil, "a measurement; set SHEETSYNC_PATCH_PROBE_MIB=150 to run it"))
    func peakMemoryOfAPatchAgainstTheSizeOfThePart() throws {
        let rows = (Self.mebibytes ?? 1) * 1024 * 1024 / 300
        let original = try Self.book(rows: rows)
        let part = try XLSXPackage(url: original).declaredSize("xl/worksheets/sheet1.xml")
        var changes = TableChanges()
        changes.cells = [CellChange(row: rows / 2, column: 5, key: "k", cell: .number("1.50"))]
        changes.appendedRows = [[.text("new"), .number("2")]]
        changes.deletedRows = [3]
        let patch = WorksheetPatch(sheet: "Sheet1", changes: changes, dataRowCount: rows - 1, ledgerColumns: Set(1...12))
        let url = try XLSXTestFiles.scratch("patched.xlsx")
        try Self.resetPeak()
        let before = try Self.currentMiB()
        try XLSXWriter.patch(original, to: url, patches: [patch], adding: [])
        let streamed = try Self.peakMiB()

        // For comparison, the former way: the part held whole in memory, then patched.
        try Self.resetPeak()
        let package = try XLSXPackage(url: original)
        var whole: [UInt8] = []
        whole.reserveCapacity(part)
        try package.stream("xl/worksheets/sheet1.xml") { whole.append(contentsOf: $0) }
        let cells = PatchedCell(prefix: "", uses1904: false, dateStyle: 0, isDateStyle: { _ in false })
        var patcher = WorksheetPatcher(patch: patch, cells: cells)
        let scratch = try XLSXTestFiles.scratch("whole.xml")
        let sink = try ByteSink(path: scratch.path)
        // Fed in chunks from the whole part, so the patcher's own buffer stays small, as before.
        for start in stride(from: 0, to: whole.count, by: 64 * 1024) {
            try patcher.feed(whole[start..<min(start + 64 * 1024, whole.count)], to: sink)
        }
        try patcher.finish(to: sink)
        try sink.close()
        let held = try Self.peakMiB()
        print(
            "PatchMemoryProbe: \(rows) rows, sheet part \(part / 1_048_576) MiB inflated; \(before) MiB resident before the patch; "
                + "peak while patching: \(streamed) MiB streamed, \(held) MiB with the part held whole")
        let rowsAfter = try XLSXReader.readRows(contentsOf: url).first?.rows.count
        #expect(rowsAfter == rows)
    }
}
