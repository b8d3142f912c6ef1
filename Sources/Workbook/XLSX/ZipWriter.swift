import CZlibCRC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a ZIP archive front to back (APPNOTE 6.3.x, no ZIP64): each entry is deflated (zlib, raw
/// deflate, default level) as its bytes arrive, its CRC-32 computed by zlib on the way, and its local
/// header's checksum and sizes filled in when the entry ends; `finish` writes the central directory.
///
/// Written by hand rather than through ZIPFoundation (which still reads packages) because on Linux
/// ZIPFoundation computes CRC-32 with a byte-at-a-time Swift loop and needs an entry's size before it
/// deflates it, so a worksheet went to a scratch file first: together 20 % of exporting a 100k-row
/// workbook (BENCHMARKS.md). An entry or an archive past 4 GiB is refused (Excel's own limits keep a
/// sheet far below it); so is a name given twice.
final class ZipWriter {
    /// A write that failed: the file, and what went wrong.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let path: String
    private var fd: Int32
    private var offset: UInt64 = 0
    private var central: [UInt8] = []
    private var names: Set<String> = []
    private var entryCount = 0
    /// At one address for its life (zlib keeps a pointer back to it); zeroed, so zlib uses its own
    /// allocator.
    private let stream: UnsafeMutablePointer<z_stream> = {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        return stream
    }()
    private var output = [UInt8](repeating: 0, count: 256 * 1024)

    /// Every entry's modification time: 1980-01-01 00:00 (the earliest a ZIP can say, and what Excel
    /// writes), so the same workbook gives the same bytes.
    private static let dosTime: UInt16 = 0
    private static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1
    private static let limit = UInt64(UInt32.max)

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws(Failure) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.failure(path, errno) }
    }

    deinit {
        if fd >= 0 { close(fd) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Adds the entry `name`, whose bytes `produce` appends to a sink (flushed into the deflater as
    /// it fills).
    func add(_ name: String, _ produce: (ByteSink) throws -> Void) throws {
        guard names.insert(name).inserted else { throw Failure(description: "'\(name)' would be written twice") }
        let headerOffset = offset
        guard headerOffset < Self.limit else { throw tooLarge(name) }
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= 0xFFFF else { throw Failure(description: "a part name over 65,535 bytes cannot be written") }
        let flags: UInt16 = nameBytes.allSatisfy { $0 < 0x80 } ? 0 : 1 << 11  // bit 11: the name is UTF-8
        try write(Self.localHeader(nameBytes, flags: flags))
        let entry = try deflateEntry(name, produce)
        guard entry.uncompressed < Self.limit, entry.compressed < Self.limit, offset < Self.limit else {
            throw tooLarge(name)
        }
        let sizes = entry.sizes
        try write(sizes, at: headerOffset + 14)
        appendCentralRecord(nameBytes, flags: flags, sizes: sizes, headerOffset: headerOffset)
        entryCount += 1
    }

    /// An entry's local header, its checksum and sizes zero until the entry ends.
    private static func localHeader(_ nameBytes: [UInt8], flags: UInt16) -> [UInt8] {
        var header: [UInt8] = []
        header.le32(0x0403_4b50)
        header.le16(20)  // version needed: 2.0 (deflate)
        header.le16(flags)
        header.le16(8)  // deflated
        header.le16(Self.dosTime)
        header.le16(Self.dosDate)
        header.le32(0)  // CRC-32, compressed and uncompressed size: filled in when the entry ends
        header.le32(0)
        header.le32(0)
        header.le16(UInt16(nameBytes.count))
        header.le16(0)  // no extra field
        header += nameBytes
        return header
    }

    /// Deflates what `produce` writes into the entry `name` and returns its checksum and sizes.
    private func deflateEntry(_ name: String, _ produce: (ByteSink) throws -> Void) throws -> Entry {
        var entry = Entry()
        stream.pointee = z_stream()
        guard
            deflateInit2_(
                stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { throw Failure(description: "cannot start deflating '\(name)' (zlib)") }
        defer { deflateEnd(stream) }
        let sink = ByteSink(name: name) { bytes throws(ByteSinkError) in
            do throws(Failure) { try self.deflate(bytes, into: &entry, finishing: false) } catch {
                throw ByteSinkError(path: self.path, message: error.description)
            }
        }
        try produce(sink)
        try sink.close()
        try deflate(UnsafeRawBufferPointer(start: nil, count: 0), into: &entry, finishing: true)
        return entry
    }

    /// The entry's record in the central directory.
    private func appendCentralRecord(_ nameBytes: [UInt8], flags: UInt16, sizes: [UInt8], headerOffset: UInt64) {
        central.le32(0x0201_4b50)
        central.le16(3 << 8 | 20)  // made by: Unix, 2.0
        central.le16(20)
        central.le16(flags)
        central.le16(8)
        central.le16(Self.dosTime)
        central.le16(Self.dosDate)
        central += sizes
        central.le16(UInt16(nameBytes.count))
        central.le16(0)  // extra field
        central.le16(0)  // comment
        central.le16(0)  // disk number
        central.le16(0)  // internal attributes
        central.le32(0o100644 << 16)  // external attributes: a regular file, rw-r--r--
        central.le32(UInt32(headerOffset))
        central += nameBytes
    }

    /// Writes the central directory and closes the file; the writer cannot be used afterwards.
    func finish() throws(Failure) {
        let directoryOffset = offset
        guard entryCount < 0xFFFF, directoryOffset + UInt64(central.count) < Self.limit else {
            throw Failure(description: "'\(path)' would need ZIP64 (over 4 GiB or 65,535 parts), which is not written")
        }
        var end = central
        end.le32(0x0605_4b50)
        end.le16(0)  // this disk
        end.le16(0)  // the disk the directory starts on
        end.le16(UInt16(entryCount))
        end.le16(UInt16(entryCount))
        end.le32(UInt32(central.count))
        end.le32(UInt32(directoryOffset))
        end.le16(0)  // no comment
        try write(end)
        let closing = fd
        fd = -1
        if close(closing) != 0 { throw Self.failure(path, errno) }
    }

    private struct Entry {
        var crc: UInt32 = 0
        var uncompressed: UInt64 = 0
        var compressed: UInt64 = 0

        /// The checksum and sizes as the local header and the central directory hold them.
        var sizes: [UInt8] {
            var sizes: [UInt8] = []
            sizes.le32(crc)
            sizes.le32(UInt32(compressed))
            sizes.le32(UInt32(uncompressed))
            return sizes
        }
    }

    /// Feeds `bytes` to the deflater and writes what it gives back; `finishing` ends the stream.
    private func deflate(_ bytes: UnsafeRawBufferPointer, into entry: inout Entry, finishing: Bool) throws(Failure) {
        if let base = bytes.baseAddress, !bytes.isEmpty {
            entry.crc = UInt32(crc32(UInt(entry.crc), base.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count)))
            entry.uncompressed += UInt64(bytes.count)
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        let count = output.count
        while true {
            let (result, produced) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(count)
                let result = zlibDeflate(stream, finishing ? Z_FINISH : Z_NO_FLUSH)
                return (result, count - Int(stream.pointee.avail_out))
            }
            // Z_BUF_ERROR: no progress was possible, harmless unless the stream is being ended.
            guard result == Z_OK || result == Z_STREAM_END || (result == Z_BUF_ERROR && !finishing) else {
                throw Failure(description: "deflating failed (zlib \(result))")
            }
            if produced > 0 {
                try write(output, count: produced)
                entry.compressed += UInt64(produced)
            }
            if finishing ? result == Z_STREAM_END : (stream.pointee.avail_in == 0 && produced < count) { return }
        }
    }

    private func write(_ bytes: [UInt8], count: Int? = nil) throws(Failure) {
        let failure: Failure? = bytes.withUnsafeBytes { buffer in
            do throws(Failure) { try write(UnsafeRawBufferPointer(rebasing: buffer[..<(count ?? buffer.count)])) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Appends at the end of the file.
    private func write(_ buffer: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let n = posixWrite(fd, base + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, errno)
            }
            done += n
        }
        offset += UInt64(done)
    }

    /// Overwrites bytes already written (a local header's checksum and sizes).
    private func write(_ bytes: [UInt8], at position: UInt64) throws(Failure) {
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(position)) }
        if n != bytes.count { throw Self.failure(path, n < 0 ? errno : EIO) }
    }

    private func tooLarge(_ name: String) -> Failure {
        Failure(description: "'\(name)' would put '\(path)' past 4 GiB, which needs ZIP64 (not written)")
    }

    private static func failure(_ path: String, _ code: Int32) -> Failure {
        Failure(description: "cannot write '\(path)': \(String(cString: strerror(code)))")
    }
}

/// zlib's `deflate` and POSIX `write`, named apart from `ZipWriter`'s own methods.
private func zlibDeflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 { deflate(stream, flush) }
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

extension [UInt8] {
    fileprivate mutating func le16(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    fileprivate mutating func le32(_ value: UInt32) {
        le16(UInt16(truncatingIfNeeded: value))
        le16(UInt16(truncatingIfNeeded: value >> 16))
    }
}
