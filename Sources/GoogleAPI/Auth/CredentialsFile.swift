import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing files that hold secrets, with ssh's rule: no access for group or others.
public enum CredentialsFile {
    /// Reads the whole file after checking, on the open descriptor, that its mode grants nothing
    /// to group or others.
    public static func readPrivate(path: String) throws(GoogleAPIError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "cannot stat: \(String(cString: strerror(errno)))")
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o077 != 0 {
            throw GoogleAPIError.insecureCredentialsFile(path: path, mode: formatMode(mode))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw GoogleAPIError.invalidCredentials(path: path, detail: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// A mode as four octal digits, such as `0644`.
    public static func formatMode(_ mode: mode_t) -> String {
        let octal = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }

    /// Replaces the file atomically with `bytes`, mode 0600: a temporary file in the same folder,
    /// fsync, rename, fsync of the folder. Missing folders are created with mode 0700.
    public static func writePrivate(_ bytes: [UInt8], path: String) throws(GoogleAPIError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw GoogleAPIError.invalidCredentials(path: path, detail: "cannot create folder '\(folder)': \(error)")
        }
        func fail(_ what: String) -> GoogleAPIError {
            GoogleAPIError.invalidCredentials(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
        }
        // An unpredictable name, created fresh (O_EXCL) and never through a symlink (O_NOFOLLOW): nobody can
        // plant a file or link there beforehand to read the secret or redirect the write.
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            var generator = SystemRandomNumberGenerator()
            let suffix = String(generator.next(), radix: 16) + String(generator.next(), radix: 16)
            temporary = folder + "/." + url.lastPathComponent + ".tmp-" + suffix
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw fail("cannot create '\(temporary)'") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = fail("cannot write '\(temporary)'")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        // The umask may have taken bits away; never added any, but say 0600 explicitly.
        guard fchmod(descriptor, 0o600) == 0, fsync(descriptor) == 0 else {
            let error = fail("cannot sync '\(temporary)'")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = fail("cannot rename '\(temporary)'")
            unlink(temporary)
            throw error
        }
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}
