import Foundation

/// Saves and loads the emulator's spreadsheets, files and credentials as JSON (`--state FILE`).
enum StateFile {
    static func load(from url: URL) throws -> PersistentWorld {
        do {
            let data = try Data(contentsOf: url)
            return try JSONDecoder().decode(PersistentWorld.self, from: data)
        } catch {
            throw EmulatorError("cannot read emulator state file '\(url.path)': \(error)", path: url.path, underlying: error)
        }
    }

    /// Writes atomically with mode 0600: the file holds refresh tokens and client secrets.
    static func save(_ world: PersistentWorld, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(world)
        } catch {
            throw EmulatorError("cannot write emulator state file '\(url.path)': \(error)", path: url.path, underlying: error)
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw EmulatorError("cannot write emulator state file '\(temporary.path)'", path: temporary.path)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            throw EmulatorError(
                "cannot write emulator state file '\(url.path)': rename failed with errno \(code)", path: url.path,
                underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
        }
    }
}
