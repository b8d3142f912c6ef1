import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import Workbook

/// The two-thread read (`streamInBackground`): the same bytes as a plain read, an early stop that
/// ends the inflating thread, and a file replaced under an open package read as it was opened.
@Suite struct XLSXPipelineTests {
    static let sheetPart = "xl/worksheets/sheet1.xml"

    /// A workbook whose one worksheet inflates to several hundred KiB (many 64 KiB chunks).
    static func workbook(in directory: URL, named name: String, note: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        let rows = (0..<4000).map { [Cell.text("row \($0)"), .number(String($0)), .text(note)] }
        try XLSXWriter.write([XLSXSheet(name: "T", rows: rows)], to: url)
        return url
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xlsx-pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theBackgroundReadGivesTheSameBytesAsAPlainRead() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = try XLSXPackage(url: Self.workbook(in: directory, named: "a.xlsx", note: "first"))
        var streamed = Data()
        var chunks = 0
        try package.streamInBackground(Self.sheetPart) { bytes in
            streamed.append(contentsOf: bytes)
            chunks += 1
        }
        #expect(chunks > 4)
        #expect(streamed == (try package.data(Self.sheetPart)))
    }

    @Test func aConsumerThatStopsEarlyEndsTheReadWithItsOwnError() throws {
        struct Enough: Error {}
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = try XLSXPackage(url: Self.workbook(in: directory, named: "a.xlsx", note: "first"))
        var seen = 0
        #expect(throws: Enough.self) {
            try package.streamInBackground(Self.sheetPart) { _ in
                seen += 1
                throw Enough()
            }
        }
        #expect(seen == 1)
        // The package is usable again at once: the inflating thread has let go of everything.
        var again = Data()
        try package.streamInBackground(Self.sheetPart) { again.append(contentsOf: $0) }
        #expect(again == (try package.data(Self.sheetPart)))
    }

    /// The package holds the bytes it opened: a file saved over it afterwards (renamed over it, or
    /// even removed) changes nothing of what is read, so no read ever mixes two versions, and the
    /// file is never opened again by path.
    @Test func aWorkbookReplacedOrRemovedAfterOpeningReadsAsOpened() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Self.workbook(in: directory, named: "a.xlsx", note: "first")
        let opened = try XLSXPackage(url: url).data(Self.sheetPart)
        for change in ["replaced", "removed"] {
            let url = try Self.workbook(in: directory, named: "a.xlsx", note: "first")
            let package = try XLSXPackage(url: url)
            if change == "replaced" {
                let other = try Self.workbook(in: directory, named: "b.xlsx", note: "second, a different text")
                #expect(rename(other.path, url.path) == 0)
            } else {
                try FileManager.default.removeItem(at: url)
            }
            var streamed = Data()
            try package.streamInBackground(Self.sheetPart) { streamed.append(contentsOf: $0) }
            #expect(streamed == opened, "\(change)")
            #expect(String(decoding: streamed, as: UTF8.self).contains("first"), "\(change)")
        }
    }
}
