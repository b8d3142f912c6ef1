import Foundation
import SheetsEmulator

/// `sheetsync-emulator --port N [--state FILE] [--credentials FILE]`: serves the emulator until killed.
@main
enum EmulatorMain {
    static let usage = """
        usage: sheetsync-emulator [--port N] [--host ADDRESS] [--state FILE] [--credentials FILE]

          --port N            port to listen on (default 8089; 0 picks a free one)
          --host ADDRESS      address to bind (default 127.0.0.1)
          --state FILE        keep spreadsheets, files and credentials in FILE across restarts
          --credentials FILE  where to write the demo authorized-user credentials
                              (default ./emulator-credentials.json, mode 0600)
        """

    static func main() async {
        let options: EmulatorOptions
        do {
            options = try EmulatorOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("sheetsync-emulator: \(error)\n\n\(usage)\n".utf8))
            exit(64)
        }
        if options.help {
            print(usage)
            return
        }
        do {
            let emulator = try SheetsEmulator(stateFile: options.stateFile.map { URL(fileURLWithPath: $0) })
            let port = try await emulator.start(port: options.port, host: options.host)
            let (clientId, secret, refreshToken) = (
                "emulator-demo-client.apps.googleusercontent.com", "emulator-demo-secret",
                "1//emulator-demo-refresh-token"
            )
            emulator.registerAuthorizedUser(clientId: clientId, clientSecret: secret, refreshToken: refreshToken)
            let credentials = emulator.authorizedUserCredentialsJSON(clientId: clientId, clientSecret: secret, refreshToken: refreshToken)
            try writePrivately(credentials, to: options.credentialsFile)
            try emulator.saveState()
            print("sheetsync-emulator listening on \(emulator.baseURL) (port \(port))")
            print("demo authorized-user credentials: \(options.credentialsFile)")
            print("use it with a google remote: \"endpoint\": \"\(emulator.baseURL)\", \"credentials\": \"\(options.credentialsFile)\"")
            fflush(nil)
            while true { try await Task.sleep(for: .seconds(3600)) }
        } catch {
            FileHandle.standardError.write(Data("sheetsync-emulator: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Credentials must not be readable by others (sheetsync refuses such files, as ssh does).
    static func writePrivately(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        // Clears an old copy so the new file is created with mode 0600; a failure shows in createFile.
        try? FileManager.default.removeItem(at: url)
        guard FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw EmulatorError("cannot write credentials file '\(path)'")
        }
    }
}

/// The command line, parsed by hand so the executable needs nothing but the emulator.
struct EmulatorOptions: Equatable {
    var port = 8089
    var host = "127.0.0.1"
    var stateFile: String?
    var credentialsFile = "emulator-credentials.json"
    var help = false

    static func parse(_ arguments: [String]) throws -> EmulatorOptions {
        var options = EmulatorOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw EmulatorError("option '\(name)' needs a value") }
                return next
            }
            switch name {
            case "--port", "-p":
                let text = try value()
                guard let port = Int(text), (0...65535).contains(port) else { throw EmulatorError("invalid port '\(text)'") }
                options.port = port
            case "--host": options.host = try value()
            case "--state": options.stateFile = try value()
            case "--credentials": options.credentialsFile = try value()
            case "--help", "-h": options.help = true
            default: throw EmulatorError("unknown argument '\(argument)'")
            }
        }
        return options
    }
}
