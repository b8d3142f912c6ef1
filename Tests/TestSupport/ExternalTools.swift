import Foundation

/// The outside programs some tests check sheetsync's files with (python3 with openpyxl, LibreOffice):
/// optional on a developer's machine, so the tests that need them are skipped with a reason when absent.
public enum ExternalTools {
    /// The first executable named `name` on `PATH`.
    public static func executable(_ name: String) -> URL? {
        ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `tool` to its end; its standard output and exit status (standard error is dropped).
    public static func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    public static let python = executable("python3")

    public static var hasOpenpyxl: Bool {
        guard let python else { return false }
        return (try? run(python, ["-c", "import openpyxl"]))?.status == 0
    }

    public static var hasLibreOffice: Bool { executable("soffice") != nil }
}
