import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered writer of bytes to a file, or to a drain (a ZIP entry's deflater): XML is appended in
/// small pieces and leaves in 1 MiB chunks, so a 100k-row sheet never exists as one string in memory.
final class ByteSink {
    private var file: UnsafeMutablePointer<FILE>?
    private var drain: ((UnsafeRawBufferPointer) throws(ByteSinkError) -> Void)?
    // Appended to per XML token; dynamic exclusivity checks would cost more than the appends.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private let path: String
    /// Bytes that reached the file so far.
    private(set) var bytesWritten: Int64 = 0
    private static let flushThreshold = 1 << 20

    /// A sink writing the new file `path` (owner-only: it holds ledger rows), which must not exist:
    /// never a symlink or anything else already there.
    init(path: String) throws(ByteSinkError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0, let file = fdopen(fd, "wb") else {
            let code = errno
            #if canImport(Glibc)
                if fd >= 0 { Glibc.close(fd) }
            #else
                if fd >= 0 { Darwin.close(fd) }
            #endif
            throw ByteSinkError(path: path, code: code)
        }
        self.file = file
        buffer.reserveCapacity(Self.flushThreshold + 64 * 1024)
    }

    /// A sink whose chunks go to `drain`; `name` says what is written, for errors.
    init(name: String, drain: @escaping (UnsafeRawBufferPointer) throws(ByteSinkError) -> Void) {
        path = name
        self.drain = drain
        buffer.reserveCapacity(Self.flushThreshold + 64 * 1024)
    }

    deinit {
        if let file { fclose(file) }
    }

    @inline(__always)
    func append(_ literal: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    func append(_ byte: UInt8) { buffer.append(byte) }

    @inline(__always)
    func append<C: Collection>(bytes: C) where C.Element == UInt8 { buffer.append(contentsOf: bytes) }

    /// Appends a non-negative integer in decimal without making a string.
    func append(decimal value: Int) {
        var rest = max(value, 0)
        var divisor = 1
        while divisor <= rest / 10 { divisor *= 10 }
        while divisor > 0 {
            buffer.append(UInt8(truncatingIfNeeded: rest / divisor) + 0x30)
            rest %= divisor
            divisor /= 10
        }
    }

    /// Writes out the buffer once it is large enough; call between rows.
    @inline(__always)
    func flushIfFull() throws(ByteSinkError) {
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    func flush() throws(ByteSinkError) {
        guard !buffer.isEmpty else { return }
        if let drain {
            let failure: ByteSinkError? = buffer.withUnsafeBytes { bytes in
                do throws(ByteSinkError) { try drain(bytes) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            bytesWritten += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        guard let file else { return }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count { throw ByteSinkError(path: path, code: ferror(file) != 0 ? errno : EIO) }
        bytesWritten += Int64(written)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file; the sink cannot be used afterwards.
    func close() throws(ByteSinkError) {
        try flush()
        drain = nil
        guard let file else { return }
        self.file = nil
        if fclose(file) != 0 { throw ByteSinkError(path: path, code: errno) }
    }
}

/// A failed write to a scratch file (disk full, say).
struct ByteSinkError: Error, CustomStringConvertible {
    var path: String
    var code: Int32
    /// What went wrong, when it is not an errno (a deflater's failure).
    var message: String?

    init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    init(path: String, message: String) {
        self.path = path
        code = 0
        self.message = message
    }

    var description: String { message ?? "cannot write '\(path)': \(String(cString: strerror(code)))" }
}
