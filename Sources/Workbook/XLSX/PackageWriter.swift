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
        // Best-effort: the scratch folder holds copies of parts already in the package.
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
        let path = try scratchFile(for: part, produce)
        // Best-effort: a scratch copy of a part; the deinit removes the whole scratch folder too.
        defer { try? FileManager.default.removeItem(at: path) }
        try add(part, file: path)
    }

    /// A scratch file (in the writer's scratch folder) that `produce` has written.
    func scratchFile(for part: String, _ produce: (ByteSink) throws -> Void) throws -> URL {
        let path = scratch.appendingPathComponent(UUID().uuidString + ".xml")
        do {
            let sink = try ByteSink(path: path.path)
            try produce(sink)
            try sink.close()
        } catch let error as ByteSinkError {
            throw XLSXError(.unreadablePackage, file: fileName, part: part, "cannot be written (\(error))")
        }
        return path
    }

    /// Deflates the file at `path` into the package as `part`, in chunks.
    func add(_ part: String, file path: URL) throws {
        do {
            let size = try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int64 ?? 0
            let handle = try FileHandle(forReadingFrom: path)
            // A read-only handle: closing it cannot lose data.
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
