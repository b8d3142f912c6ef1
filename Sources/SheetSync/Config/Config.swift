import Foundation
import SheetSyncCore

/// Where the ledger lives: the local store and the remote workbook. Paths are absolute here,
/// resolved against the config file's folder.
public struct Config: Sendable, Equatable {
    public enum RemoteConfig: Sendable, Equatable {
        case csv(folder: URL)
        case xlsx(file: URL)
        case google(GoogleRemoteConfig)
    }

    public struct GoogleRemoteConfig: Sendable, Equatable {
        public var spreadsheetId: String?
        public var credentials: URL
        public var endpoint: URL?
        public var retryBudgetSeconds: Double
        /// The most bytes one write request carries (`remote.maxRequestBytes`).
        public var maxRequestBytes: Int = GoogleLimits.defaultRequestBytes
    }

    public var store: URL
    public var remote: RemoteConfig
    /// The IANA time zone of a dataset sheetsync creates (an existing one keeps its own).
    public var timezone: String
    /// Where `timezone` came from, for `init` to say: `the config`, `$TZ`, `/etc/localtime`, …
    public var timezoneSource: String
    /// The `dateOrder` and `decimalSeparator` of a ledger `init` starts (`LocalFormsDefault`), and
    /// where they came from.
    public var localForms: LocalForms
    public var localFormsSource: String
    public var backupsToKeep: Int
    /// The `import` section: rules and bank profiles for statements (`docs/bank-statements.md`).
    public var importing = ImportSettings()
    /// The file this came from, or nil for the embedded default.
    public var source: URL?

    public init(
        store: URL, remote: RemoteConfig, timezone: String? = nil, backupsToKeep: Int = 5, source: URL? = nil
    ) {
        self.store = store
        self.remote = remote
        let system = timezone == nil ? SystemTimeZone.detect() : nil
        self.timezone = timezone ?? system?.identifier ?? "Etc/UTC"
        self.timezoneSource = system?.source ?? "the config"
        (self.localForms, self.localFormsSource) = LocalFormsDefault.guess(
            environment: ProcessInfo.processInfo.environment, timeZone: self.timezone)
        self.backupsToKeep = backupsToKeep
        self.source = source
    }

    /// The embedded default: the CSV workbook in the current folder, with `sheetsync.sqlite` beside it.
    public static func embeddedDefault(in folder: URL) -> Config {
        Config(store: folder.appendingPathComponent("sheetsync.sqlite"), remote: .csv(folder: folder))
    }

    /// `--config FILE`, else `$SHEETSYNC_CONFIG`, else `./sheetsync.json`, else
    /// `~/.config/sheetsync/config.json`, else the embedded default.
    public static func locate(explicit: String?, environment: [String: String], currentDirectory: URL) throws -> Config {
        if let explicit {
            return try load(named: URL(fileURLWithPath: explicit, relativeTo: currentDirectory).standardizedFileURL, by: "--config")
        }
        if let fromEnv = environment["SHEETSYNC_CONFIG"], !fromEnv.isEmpty {
            return try load(named: URL(fileURLWithPath: fromEnv, relativeTo: currentDirectory).standardizedFileURL, by: "$SHEETSYNC_CONFIG")
        }
        for candidate in defaultPlaces(environment: environment, currentDirectory: currentDirectory)
        where FileManager.default.fileExists(atPath: candidate.path) {
            return try load(candidate)
        }
        return embeddedDefault(in: currentDirectory)
    }

    /// `./sheetsync.json`, then `~/.config/sheetsync/config.json`.
    static func defaultPlaces(environment: [String: String], currentDirectory: URL) -> [URL] {
        [currentDirectory.appendingPathComponent("sheetsync.json")]
            + (environment["HOME"].map { [URL(fileURLWithPath: $0).appendingPathComponent(".config/sheetsync/config.json")] } ?? [])
    }

    /// A file the user named: when it is missing, say so (a typo in a cron line must not fall back to another ledger).
    private static func load(named url: URL, by origin: String) throws -> Config {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SheetSyncError.configuration(
                "config file \(url.path) (named by \(origin)) does not exist",
                hint: "sheetsync reads the config from --config FILE, else $SHEETSYNC_CONFIG, else ./sheetsync.json, else "
                    + "~/.config/sheetsync/config.json, else uses the CSV workbook in the current folder; correct the path "
                    + "or drop \(origin)"
            ).coded(.configMissing)
        }
        return try load(url)
    }

    public static func load(_ url: URL) throws -> Config {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SheetSyncError.configuration("cannot read config file \(url.path): \(error.localizedDescription)").coded(.configMissing)
        }
        do {
            let raw = try ConfigFile.read(Array(data), source: url)
            return try raw.resolved(relativeTo: url.deletingLastPathComponent(), source: url)
        } catch let error as SheetSyncError where error.code == nil && error.exitCode == .configuration {
            // Every problem the file itself has, whichever key it is in.
            throw error.coded(.configInvalid)
        }
    }
}

/// The config file as written (`config.example.json` documents every key).
struct RawConfig {
    struct Remote {
        var type: String
        var path: String?
        var spreadsheetId: String?
        var credentials: String?
        var endpoint: String?
        var retryBudgetSeconds: Double?
        var maxRequestBytes: Int?

        /// A key of the Google remote on a file remote is a mistake to name, not to ignore.
        func refuseKeysOfOtherTypes(source: URL) throws {
            let type = self.type.lowercased()
            guard type == "csv" || type == "xlsx" else { return }
            let googleOnly: [(String, Bool)] = [
                ("spreadsheetId", spreadsheetId != nil), ("credentials", credentials != nil), ("endpoint", endpoint != nil),
                ("retryBudgetSeconds", retryBudgetSeconds != nil), ("maxRequestBytes", maxRequestBytes != nil),
            ]
            if let (key, _) = googleOnly.first(where: \.1) {
                throw SheetSyncError.configuration(
                    "\(source.path): remote.\(key) belongs to a google remote, not to this \(type) remote; remove it, or set "
                        + "remote.type to \"google\"")
            }
        }
    }

    var store: String
    var remote: Remote
    var timezone: String?
    var backups: Int?
    var importing: ImportSettings?

    func resolved(relativeTo folder: URL, source: URL) throws -> Config {
        let paths = ConfigPaths(folder: folder)
        try remote.refuseKeysOfOtherTypes(source: source)
        let remoteConfig = try remote.resolved(paths: paths, source: source)
        if let timezone, TimeZone(identifier: timezone) == nil {
            throw SheetSyncError.configuration("\(source.path): timezone '\(timezone)' is not an IANA time zone")
        }
        var config = Config(store: paths.url(store), remote: remoteConfig, timezone: timezone, backupsToKeep: backups ?? 5, source: source)
        config.importing = importing ?? ImportSettings()
        return config
    }
}

/// Paths in a config file: `~` expanded, relative to the file's folder.
private struct ConfigPaths {
    let folder: URL

    func url(_ p: String) -> URL {
        let expanded = NSString(string: p).expandingTildeInPath
        return URL(fileURLWithPath: expanded, relativeTo: folder).standardizedFileURL
    }

    // What is there is named by what it is (a folder, a file) where the remote is made; a name alone here.
    func exists(_ p: String) -> Bool { FileManager.default.fileExists(atPath: url(p).path) }
}

extension RawConfig.Remote {
    fileprivate func resolved(paths: ConfigPaths, source: URL) throws -> Config.RemoteConfig {
        switch type.lowercased() {
        case "csv": return try csv(paths: paths, source: source)
        case "xlsx": return try xlsx(paths: paths, source: source)
        case "google": return try google(paths: paths, source: source)
        default:
            throw SheetSyncError.configuration("\(source.path): remote.type '\(type)' is not one of csv, xlsx, google")
        }
    }

    private func csv(paths: ConfigPaths, source: URL) throws -> Config.RemoteConfig {
        guard let p = path else {
            throw SheetSyncError.configuration("\(source.path): remote.type 'csv' needs remote.path (the workbook folder)")
        }
        if [".csv", ".xlsx", ".xlsm", ".ods"].contains(where: { p.lowercased().hasSuffix($0) }), !paths.exists(p) {
            throw SheetSyncError.configuration(
                "\(source.path): remote.path '\(p)' names a file, but a csv remote is a folder of five .csv files (one per tab): "
                    + "name the folder\(p.lowercased().hasSuffix(".xlsx") ? ", or set remote.type to \"xlsx\"" : "")")
        }
        return .csv(folder: paths.url(p))
    }

    private func xlsx(paths: ConfigPaths, source: URL) throws -> Config.RemoteConfig {
        guard let p = path else {
            throw SheetSyncError.configuration("\(source.path): remote.type 'xlsx' needs remote.path (the .xlsx file)")
        }
        guard XLSXWorkbookRemote.isWorkbookFile(URL(fileURLWithPath: p)) || paths.exists(p) else {
            throw SheetSyncError.configuration(
                "\(source.path): remote.path '\(p)' is not an .xlsx file (an xlsx remote is one .xlsx, .xlsm, .xltx or .xltm "
                    + "file\(p.lowercased().hasSuffix(".csv") ? "; for a folder of CSV files set remote.type to \"csv\" and name the folder" : "")"
            )
        }
        return .xlsx(file: paths.url(p))
    }

    private func google(paths: ConfigPaths, source: URL) throws -> Config.RemoteConfig {
        guard let credentials else {
            throw SheetSyncError.configuration("\(source.path): remote.type 'google' needs remote.credentials")
        }
        var endpointURL: URL?
        if let e = endpoint {
            guard let url = URL(string: e), url.scheme != nil else {
                throw SheetSyncError.configuration("\(source.path): remote.endpoint '\(e)' is not a URL")
            }
            endpointURL = url
        }
        let requestBytes = maxRequestBytes ?? GoogleLimits.defaultRequestBytes
        guard (GoogleLimits.minRequestBytes...GoogleLimits.maxRequestBytes).contains(requestBytes) else {
            throw SheetSyncError.configuration(
                "\(source.path): remote.maxRequestBytes \(requestBytes) is outside \(GoogleLimits.minRequestBytes)..."
                    + "\(GoogleLimits.maxRequestBytes) (Google refuses request bodies over 10 MiB and advises 2 MB)")
        }
        return .google(
            .init(
                spreadsheetId: spreadsheetId, credentials: paths.url(credentials),
                endpoint: endpointURL, retryBudgetSeconds: retryBudgetSeconds ?? 120,
                maxRequestBytes: requestBytes))
    }
}
