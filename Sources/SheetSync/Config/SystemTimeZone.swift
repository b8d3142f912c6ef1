import Foundation

/// The machine's time zone, as `init` gives it to a new ledger: `$TZ` (`Europe/Berlin`,
/// `:Europe/Berlin` or `:/usr/share/zoneinfo/Europe/Berlin`), else the zone `/etc/localtime` links
/// to, else `/etc/timezone`, else Foundation's guess, else `Etc/UTC`; with where it came from, so
/// `init` can say why it chose it.
public struct SystemTimeZone: Hashable, Sendable {
    public var identifier: String
    /// `$TZ`, `/etc/localtime`, `/etc/timezone`, `the system`.
    public var source: String

    public init(identifier: String, source: String) {
        self.identifier = identifier
        self.source = source
    }

    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment, localtime: String = "/etc/localtime",
        timezoneFile: String = "/etc/timezone"
    ) -> SystemTimeZone {
        if let tz = environment["TZ"], let zone = zoneName(tz) { return SystemTimeZone(identifier: zone, source: "$TZ") }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime), let zone = zoneName(target) {
            return SystemTimeZone(identifier: zone, source: "/etc/localtime")
        }
        if let text = try? String(contentsOfFile: timezoneFile, encoding: .utf8), let zone = zoneName(text) {
            return SystemTimeZone(identifier: zone, source: "/etc/timezone")
        }
        if let zone = zoneName(TimeZone.current.identifier) { return SystemTimeZone(identifier: zone, source: "the system") }
        return SystemTimeZone(identifier: "Etc/UTC", source: "no zone set on this system")
    }

    /// The IANA name in a `$TZ` value or a path into a zoneinfo folder, when it names a known zone.
    static func zoneName(_ text: String) -> String? {
        var name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.hasPrefix(":") { name.removeFirst() }
        if let range = name.range(of: "zoneinfo/", options: .backwards) { name = String(name[range.upperBound...]) }
        guard !name.isEmpty, !name.hasPrefix("/"), TimeZone(identifier: name) != nil else { return nil }
        return name
    }

    /// The known zone a mistyped name most likely meant (`Berlin` → `Europe/Berlin`), if any.
    public static func suggestion(for name: String) -> String? {
        let wanted = name.lowercased().replacingOccurrences(of: " ", with: "_")
        let known = TimeZone.knownTimeZoneIdentifiers
        return known.first { $0.lowercased() == wanted } ?? known.first { $0.lowercased().hasSuffix("/" + wanted) }
    }
}
