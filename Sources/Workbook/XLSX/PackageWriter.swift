import Foundation
import ZIPFoundation

/// Writes the entries of a new ZIP package, deflated, and owns a scratch folder for parts that are
/// streamed to disk before they are compressed.
///
/// ZIPFoundation needs an entry's size before it deflates it, so a worksheet is first streamed to a
/// scratch file in chunks, then deflated from that file in chunks: memory stays flat either way.
final class PackageWriter {
    private let archive: Archive
    private let fileName: String
    let scratch: URL
    private static let bufferSize = 256 * 1024

    init(url: URL) throws(XLSXError) {
        fileName = url.lastPathComponent
        let manager = FileManager.default
        do {
            if manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
            archive = try Archive(url: url, accessMode: .create)
            scratch = manager.temporaryDirectory.appendingPathComponent("sheetsync-xlsx-\(UUID().uuidString)")
            try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw XLSXError(.unreadablePackage, file: url.lastPathComponent, "cannot be created (\(error))")
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: scratch)
    }

    func add(_ part: String, text: String) throws {
        try add(part, data: Data(text.utf8))
    }

    func add(_ part: String, data: Data) throws {
        do {
            try archive.addEntry(
                with: part, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate,
                bufferSize: Self.bufferSize
            ) { position, size in
                let start = Int(position)
                return data.subdata(in: start..<min(start + size, data.count))
            }
        } catch {
            throw XLSXError(.unreadablePackage, file: fileName, part: part, "cannot be written (\(error))")
        }
    }

    /// Streams a part through a scratch file: `produce` writes it, then it is deflated into the package.
    func add(_ part: String, streaming produce: (ByteSink) throws -> Void) throws {
        let path = scratch.appendingPathComponent(UUID().uuidString + ".xml")
        defer { try? FileManager.default.removeItem(at: path) }
        let size: Int64
        do {
            let sink = try ByteSink(path: path.path)
            try produce(sink)
            try sink.close()
            size = sink.bytesWritten
        } catch let error as ByteSinkError {
            throw XLSXError(.unreadablePackage, file: fileName, part: part, "cannot be written (\(error))")
        }
        do {
            let handle = try FileHandle(forReadingFrom: path)
            defer { try? handle.close() }
            try archive.addEntry(
                with: part, type: .file, uncompressedSize: size, compressionMethod: .deflate,
                bufferSize: Self.bufferSize
            ) { _, chunk in
                try handle.read(upToCount: chunk) ?? Data()
            }
        } catch {
            throw XLSXError(.unreadablePackage, file: fileName, part: part, "cannot be written (\(error))")
        }
    }

    /// Adds `name` as `plan` edited it, or copied from `package` as it was.
    func add(_ name: String, editedIn plan: PreservingPlan, from package: XLSXPackage) throws {
        if let text = plan.edited[name] { return try add(name, text: text) }
        try add(name) { sink in
            try package.stream(name) { bytes in
                sink.append(bytes: bytes)
                try sink.flushIfFull()
            }
        }
    }
}
