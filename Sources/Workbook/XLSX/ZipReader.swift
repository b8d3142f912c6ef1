import CZlibCRC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ZIP file opened for reading (APPNOTE 6.3.x, ZIP64 included): its central directory listed once,
/// each entry's bytes read on demand from the one open file with `pread` (so any thread may read an
/// entry), never past the entry's recorded compressed size, and inflated with zlib.
///
/// Written by hand rather than read through ZIPFoundation, whose Linux inflater reads on past an
/// entry until the deflate stream says it has ended: at the end of a damaged file whose stream never
/// does, it read zero bytes forever, and a sync hung at 100 % CPU (FUZZING.md finding 14). Here an
/// entry that ends before its stream does, or points outside the file, is refused.
final class ZipReader: Sendable {
    struct Entry: Sendable {
        let path: String
        let method: UInt16
        let flags: UInt16
        let checksum: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
        /// A folder (its name ends in `/`) or a symbolic link: no part.
        let isFile: Bool
    }

    /// What is wrong with the file, in words for an error message.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The directory lists more entries than the reader was allowed to take.
        var tooManyEntries = false
        /// The file has no ZIP end record at all (not a damaged ZIP: no ZIP).
        var notAZip = false
        /// The file itself could not be opened (the description is the system's reason).
        var cannotOpen = false
        /// Nothing was read: what is there is no regular file (a link, a FIFO, a device).
        var refusal: AtomicFileError?
    }

    let entries: [Entry]
    private let fd: Int32
    /// Where the central directory starts: no entry's bytes reach past it.
    private let directoryOffset: UInt64

    /// Opens the file at `path` and reads its central directory, listing at most `maximumEntries`
    /// entries (more is refused as too many).
    init(path: String, maximumEntries: Int) throws(Failure) {
        let opened: Int32?
        // A regular file only, never through a symlink (`FileSafety`): a FIFO or device would hang the read.
        do {
            opened = try FileSafety.open(path, flags: O_RDONLY)
        } catch {
            if case .notAFile = error { throw Failure(description: error.reason, refusal: error) }
            throw Failure(description: error.reason, cannotOpen: true)
        }
        guard let fd = opened else { throw Failure(description: String(cString: strerror(ENOENT)), cannotOpen: true) }
        do {
            (entries, directoryOffset) = try Self.directory(fd, maximumEntries: maximumEntries)
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Streams the inflated bytes of `entry` to `consumer` in chunks of at most `chunkSize` bytes.
    /// The checksum and the declared size are the caller's to compare.
    func read(_ entry: Entry, chunkSize: Int, to consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        if entry.flags & 1 != 0 { throw Failure(description: "is encrypted") }
        let header = try bytes(at: entry.localHeaderOffset, count: 30)
        guard Self.uint32(header, 0) == 0x0403_4b50 else { throw Failure(description: "has no local header where the directory says") }
        let start = entry.localHeaderOffset + 30 + UInt64(Self.uint16(header, 26)) + UInt64(Self.uint16(header, 28))
        let (end, overflow) = start.addingReportingOverflow(entry.compressedSize)
        guard !overflow, end <= directoryOffset else { throw Failure(description: "runs past the end of the file's data (truncated?)") }
        switch entry.method {
        case 0:
            var position = start
            while position < end {
                let chunk = try bytes(at: position, count: Int(min(UInt64(chunkSize), end - position)))
                try chunk.withUnsafeBytes { try consumer($0) }
                position += UInt64(chunk.count)
            }
        case 8: try inflate(from: start, to: end, chunkSize: chunkSize, consumer)
        default: throw Failure(description: "is compressed with method \(entry.method), which is not supported")
        }
    }

    private func inflate(from start: UInt64, to end: UInt64, chunkSize: Int, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
            input.deallocate()
            output.deallocate()
        }
        guard inflateInit2_(stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "cannot be inflated (zlib)")
        }
        defer { inflateEnd(stream) }
        var position = start
        while true {
            if stream.pointee.avail_in == 0 {
                // Never past the entry's own bytes: a stream that has not ended by then is damaged.
                guard position < end else { throw Failure(description: "ends before its compressed data does (truncated?)") }
                let count = Int(min(UInt64(chunkSize), end - position))
                try Self.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: input[..<count]), at: position)
                position += UInt64(count)
                stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = UInt32(count)
            }
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(chunkSize)
            let result = zlibInflate(stream, Z_NO_FLUSH)
            let produced = chunkSize - Int(stream.pointee.avail_out)
            if produced > 0 { try consumer(UnsafeRawBufferPointer(rebasing: output[..<produced])) }
            switch result {
            case Z_STREAM_END: return
            case Z_OK: continue
            case Z_BUF_ERROR where stream.pointee.avail_in == 0: continue  // wants more input: read on, or stop at the end
            default: throw Failure(description: "is corrupt (its compressed data cannot be inflated)")
            }
        }
    }

    /// `count` bytes at `offset`, all of them or an error.
    private func bytes(at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        try Self.bytes(fd, at: offset, count: count)
    }

    private static func bytes(_ fd: Int32, at offset: UInt64, count: Int) throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let failure: Failure? = buffer.withUnsafeMutableBytes { bytes in
            do throws(Failure) { try read(fd, into: bytes, at: offset) } catch { return error }
            return nil
        }
        if let failure { throw failure }
        return buffer
    }

    /// Fills `buffer` from `offset`: all of it, or an error (a file shorter than its directory says).
    private static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(Failure) {
        guard let base = buffer.baseAddress else { return }
        let (last, overflow) = offset.addingReportingOverflow(UInt64(buffer.count))
        guard !overflow, last <= UInt64(Int64.max) else { throw Failure(description: "points past the end of the file") }
        var done = 0
        while done < buffer.count {
            let n = pread(fd, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw Failure(description: String(cString: strerror(errno))) }
            if n == 0 { throw Failure(description: "points past the end of the file") }
            done += n
        }
    }

    private static func uint16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    private static func uint32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(uint16(b, at)) | UInt32(uint16(b, at + 2)) << 16 }
    private static func uint64(_ b: [UInt8], _ at: Int) -> UInt64 { UInt64(uint32(b, at)) | UInt64(uint32(b, at + 4)) << 32 }

    /// The entries of the central directory, and where it starts.
    private static func directory(_ fd: Int32, maximumEntries: Int) throws(Failure) -> ([Entry], UInt64) {
        let end = try EndRecord(fd)
        guard end.count <= UInt64(maximumEntries) else {
            throw Failure(description: "holds more than \(maximumEntries) parts (refused)", tooManyEntries: true)
        }
        let (directoryEnd, overflow) = end.directoryOffset.addingReportingOverflow(end.directorySize)
        guard !overflow, directoryEnd <= end.offset else { throw Failure(description: "has a central directory outside the file") }
        let directory = try bytes(fd, at: end.directoryOffset, count: Int(end.directorySize))
        var entries: [Entry] = []
        var at = 0
        while entries.count < Int(end.count) {
            let (entry, next) = try self.entry(in: directory, at: at, number: entries.count + 1)
            entries.append(entry)
            at = next
        }
        return (entries, end.directoryOffset)
    }

    /// The end of central directory record (its ZIP64 form where the classic one points there).
    private struct EndRecord {
        /// Where the classic end record starts in the file.
        let offset: UInt64
        var count: UInt64
        var directorySize: UInt64
        var directoryOffset: UInt64

        init(_ fd: Int32) throws(Failure) {
            let fileEnd = lseek(fd, 0, SEEK_END)
            guard fileEnd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
            let size = UInt64(fileEnd)
            guard size >= 22 else { throw Failure(description: "is too short to be a ZIP file", notAZip: true) }
            // The end record sits in the last 22 bytes plus a comment of at most 65,535.
            let tailSize = min(size, 22 + 65_535)
            let tail = try bytes(fd, at: size - tailSize, count: Int(tailSize))
            guard let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { uint32(tail, $0) == 0x0605_4b50 })
            else { throw Failure(description: "has no ZIP end record", notAZip: true) }
            offset = size - tailSize + UInt64(end)
            count = UInt64(uint16(tail, end + 10))
            directorySize = UInt64(uint32(tail, end + 12))
            directoryOffset = UInt64(uint32(tail, end + 16))
            if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
                try readZIP64(fd)
            }
        }

        /// ZIP64: a locator right before the end record points at the ZIP64 end record.
        private mutating func readZIP64(_ fd: Int32) throws(Failure) {
            guard offset >= 20 else { throw Failure(description: "has a damaged ZIP64 end record") }
            let locator = try bytes(fd, at: offset - 20, count: 20)
            guard uint32(locator, 0) == 0x0706_4b50 else { throw Failure(description: "has a damaged ZIP64 end record") }
            let record = try bytes(fd, at: uint64(locator, 8), count: 56)
            guard uint32(record, 0) == 0x0606_4b50 else { throw Failure(description: "has a damaged ZIP64 end record") }
            (count, directorySize, directoryOffset) = (uint64(record, 32), uint64(record, 40), uint64(record, 48))
        }
    }

    /// The central directory's `number`-th entry, which starts at `at`, and where the next one starts.
    private static func entry(in directory: [UInt8], at: Int, number: Int) throws(Failure) -> (Entry, next: Int) {
        guard at + 46 <= directory.count, uint32(directory, at) == 0x0201_4b50 else {
            throw Failure(description: "has a damaged central directory (entry \(number))")
        }
        let nameLength = Int(uint16(directory, at + 28)), extraLength = Int(uint16(directory, at + 30))
        let commentLength = Int(uint16(directory, at + 32))
        let next = at + 46 + nameLength + extraLength + commentLength
        guard next <= directory.count else { throw Failure(description: "has a damaged central directory (entry \(number))") }
        var compressed = UInt64(uint32(directory, at + 20)), uncompressed = UInt64(uint32(directory, at + 24))
        var offset = UInt64(uint32(directory, at + 42))
        if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            let extra = at + 46 + nameLength
            try readZIP64Field(
                directory, extra..<extra + extraLength, uncompressed: &uncompressed, compressed: &compressed, offset: &offset)
        }
        let path = String(decoding: directory[at + 46..<at + 46 + nameLength], as: UTF8.self)
        let madeBy = uint16(directory, at + 4) >> 8
        let mode = uint32(directory, at + 38) >> 16
        let isLink = madeBy == 3 && mode & 0o170000 == 0o120000
        let entry = Entry(
            path: path, method: uint16(directory, at + 10), flags: uint16(directory, at + 8), checksum: uint32(directory, at + 16),
            compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: offset,
            isFile: !path.hasSuffix("/") && !isLink)
        return (entry, next)
    }

    /// The ZIP64 extra field holds the values whose 32-bit fields are all ones, in this order.
    private static func readZIP64Field(
        _ directory: [UInt8], _ extras: Range<Int>, uncompressed: inout UInt64, compressed: inout UInt64, offset: inout UInt64
    ) throws(Failure) {
        var extra = extras.lowerBound
        while extra + 4 <= extras.upperBound {
            let id = uint16(directory, extra), length = Int(uint16(directory, extra + 2))
            guard extra + 4 + length <= extras.upperBound else { break }
            if id == 1 {
                var field = extra + 4
                func next64() throws(Failure) -> UInt64 {
                    guard field + 8 <= extra + 4 + length else { throw Failure(description: "has a damaged ZIP64 field") }
                    defer { field += 8 }
                    return uint64(directory, field)
                }
                if uncompressed == 0xFFFF_FFFF { uncompressed = try next64() }
                if compressed == 0xFFFF_FFFF { compressed = try next64() }
                if offset == 0xFFFF_FFFF { offset = try next64() }
                return
            }
            extra += 4 + length
        }
        throw Failure(description: "has a damaged ZIP64 field")
    }
}

/// zlib's `inflate`, named apart from `ZipReader`'s own method.
private func zlibInflate(_ stream: UnsafeMutablePointer<z_stream>, _ flush: Int32) -> Int32 { inflate(stream, flush) }
