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

    /// Names in this folder that look like `AtomicFile` temporary files (being written or complete).
    var testTempFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
            $0.contains(".sheetsync-tmp-") || $0.contains(".sheetsync-swap-")
        }
    }

    /// The permission bits of the file or folder here (not following a symlink's own mode).
    var testMode: Int {
        get throws { try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
    }

    func setTestMode(_ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// The contents of every backup of `name` in this folder's backup folder, oldest first.
    func testBackupContents(of name: String) throws -> [[UInt8]] {
        let folder = appendingPathComponent(AtomicFile.backupFolderName)
        return try AtomicFile.backups(of: name, in: self).map { try folder.appendingPathComponent($0).testBytes }
    }
}
