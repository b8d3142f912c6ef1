import Foundation

@testable import Workbook

/// A fresh folder under the system temporary directory, removed when `body` returns.
func withAtomicTestFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("sheetsync-atomic-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
}

extension URL {
    var testBytes: [UInt8] {
        get throws { try [UInt8](Data(contentsOf: self)) }
    }

    func writeTestBytes(_ bytes: [UInt8]) throws {
        try Data(bytes).write(to: self)
    }

    func setTestModificationDate(_ date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    /// Names in this folder that look like `AtomicFile` temporary files.
    var testTempFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.contains(".sheetsync-tmp-") }
    }
}
