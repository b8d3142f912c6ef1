import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the entries of a new ZIP package, deflated (`ZipWriter`), and owns a scratch folder for
/// parts a writer must finish before the package is written (a patched worksheet).
///
/// A part is deflated as it is produced, chunk by chunk: memory stays flat however big a sheet is.
/// `finish` must be called once every part is added (it writes the package's directory).
final class PackageWriter {
    private let zip: ZipWriter
    private let url: URL
    private let fileName: String
    private var scratchFolder: URL?
    private static let bufferSize = 256 * 1024

    init(url: URL) throws(XLSXError) {
        self.url = url
        fileName = url.lastPathComponent
        do {
            zip = try ZipWriter(path: url.path)
        } catch {
            throw XLSXError(.cannotWrite, file: url.lastPathComponent, "cannot be created (\(error))")
        }
    }

    deinit {
        // Best-effort: the scratch folder holds copies of parts already in the package.
        if let scratchFolder { try? FileManager.default.removeItem(at: scratchFolder) }
    }

    func add(_ part: String, text: String) throws {
        try add(part, data: Data(text.utf8))
    }

    func add(_ part: String, data: Data) throws {
        try add(part) { sink in sink.append(bytes: data) }
    }

    /// Adds `part`, whose bytes `produce` writes to the sink it is given.
    func add(_ part: String, streaming produce: (ByteSink) throws -> Void) throws {
        do {
            try zip.add(part, produce)
        } catch let error as ZipWriter.Failure {
            throw XLSXError(.cannotWrite, file: fileName, part: part, "cannot be written (\(error))")
        } catch let error as ByteSinkError {
            throw XLSXError(.cannotWrite, file: fileName, part: part, "cannot be written (\(error))")
        }
    }

    /// A scratch file (in the writer's scratch folder) that `produce` has written.
    func scratchFile(for part: String, _ produce: (ByteSink) throws -> Void) throws -> URL {
        do {
            let folder = try scratch()
            let path = folder.appendingPathComponent(UUID().uuidString + ".xml")
            let sink = try ByteSink(path: path.path)
            try produce(sink)
            try sink.close()
            return path
        } catch let error as ByteSinkError {
            throw XLSXError(.cannotWrite, file: fileName, part: part, "cannot be written (\(error))")
        }
    }

    /// Deflates the file at `path` into the package as `part`, in chunks.
    func add(_ part: String, file path: URL) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: path)
        } catch {
            throw XLSXError(.cannotWrite, file: fileName, part: part, "cannot be written (\(error))")
        }
        // A read-only handle: closing it cannot lose data.
        defer { try? handle.close() }
        try add(part) { sink in
            while let chunk = try handle.read(upToCount: Self.bufferSize), !chunk.isEmpty {
                sink.append(bytes: chunk)
                try sink.flushIfFull()
            }
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

    /// Writes the package's central directory and closes it: the package is complete.
    func finish() throws {
        do {
            try zip.finish()
        } catch {
            throw XLSXError(.cannotWrite, file: fileName, "cannot be written (\(error))")
        }
    }

    /// The scratch folder: beside the package being written, never in the system's temporary folder
    /// (a whole sheet must not sit where other users can list it, nor outlive the run there). sheetsync
    /// writes every package into its private temporary folder beside the workbook (`AtomicFile`), so
    /// this lands in there: hidden, 0700, its files 0600, and swept with that folder by the next run
    /// when a crash leaves it.
    private func scratch() throws(ByteSinkError) -> URL {
        if let scratchFolder { return scratchFolder }
        let base = url.deletingLastPathComponent().path + "/.\(fileName).sheetsync-spool-\(getpid())-"
        var n = 0
        while mkdir(base + "\(n)", 0o700) != 0 {
            guard errno == EEXIST, n < 10_000 else {
                throw ByteSinkError(
                    path: base + "\(n)", message: "cannot create the scratch folder '\(base)\(n)' (\(String(cString: strerror(errno))))")
            }
            n += 1
        }
        let folder = URL(fileURLWithPath: base + "\(n)")
        scratchFolder = folder
        return folder
    }
}
