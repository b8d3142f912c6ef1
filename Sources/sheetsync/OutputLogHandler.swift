import Logging

/// The command-line tool's log handler: a library's log line (a Google error at `--verbose`, a file
/// it could not delete) goes to stderr through `Output.error`, so it is made visible as every other
/// line is (`TerminalText`): a server's answer or a cell quoted in a log never acts on the terminal.
struct OutputLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }
        let suffix = fields.isEmpty ? "" : " " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        Output.error("\(event.level): \(event.message)\(suffix)")
    }
}
