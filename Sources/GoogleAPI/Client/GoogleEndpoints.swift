import Foundation

/// Where the Google services live; one `endpoint` override stands in for all of them (the emulator).
public struct GoogleEndpoints: Hashable, Sendable {
    /// Stands for `https://sheets.googleapis.com`.
    public var sheets: URL
    /// Stands for `https://www.googleapis.com` (Drive and uploads).
    public var googleapis: URL
    /// Stands for `https://oauth2.googleapis.com`.
    public var oauth2: URL
    /// The single base URL replacing every origin, token_uri's included, when set.
    public var override: URL?

    static let defaultSheets = URL(string: "https://sheets.googleapis.com")
    static let defaultGoogleapis = URL(string: "https://www.googleapis.com")
    static let defaultOAuth2 = URL(string: "https://oauth2.googleapis.com")
    /// The token endpoint used when a credentials file names none.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"
    /// Google's consent page for installed apps.
    public static let defaultAuthURI = "https://accounts.google.com/o/oauth2/auth"

    /// Google's real services.
    public static let production = GoogleEndpoints()

    /// The real services, or everything at `endpoint` when one is given (its path, if any, is a prefix).
    public init(endpoint: URL? = nil) {
        override = endpoint
        // The literals above are valid URLs, so these fallbacks never apply; they avoid a force unwrap.
        let fallback = URL(fileURLWithPath: "/")
        sheets = endpoint ?? Self.defaultSheets ?? fallback
        googleapis = endpoint ?? Self.defaultGoogleapis ?? fallback
        oauth2 = endpoint ?? Self.defaultOAuth2 ?? fallback
    }

    /// Parses an `endpoint` setting; nil when it is not an absolute http(s) URL.
    public init?(endpoint text: String) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { return nil }
        self.init(endpoint: url)
    }

    /// A credentials file's token_uri (or the default), with its origin replaced by the override.
    public func tokenURL(_ tokenURI: String?) throws(GoogleAPIError) -> URL {
        try relocate(tokenURI ?? Self.defaultTokenURI, what: "token_uri")
    }

    /// An OAuth consent page URI, with its origin replaced by the override.
    public func authURL(_ authURI: String?) throws(GoogleAPIError) -> URL {
        try relocate(authURI ?? Self.defaultAuthURI, what: "auth_uri")
    }

    private func relocate(_ text: String, what: String) throws(GoogleAPIError) -> URL {
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw GoogleAPIError.tokenRequestFailed("\(what) '\(text)' is not an absolute URL")
        }
        guard let override else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let base = URLComponents(url: override, resolvingAgainstBaseURL: false)
        else { throw GoogleAPIError.tokenRequestFailed("\(what) '\(text)' cannot be moved to '\(override.absoluteString)'") }
        let path = components.percentEncodedPath
        components.scheme = base.scheme
        components.host = base.host
        components.port = base.port
        components.percentEncodedPath = Self.join(base.percentEncodedPath, path)
        guard let relocated = components.url else {
            throw GoogleAPIError.tokenRequestFailed("\(what) '\(text)' cannot be moved to '\(override.absoluteString)'")
        }
        return relocated
    }

    static func join(_ prefix: String, _ path: String) -> String {
        let head = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        return head + (path.hasPrefix("/") ? path : "/" + path)
    }

    /// `base` + an already percent-encoded path + an encoded query built from `query`, plus
    /// `prettyPrint=false` (Google indents its JSON answers unless told not to).
    static func url(_ base: URL, path: String, query: [(String, String)] = []) throws(GoogleAPIError) -> URL {
        var text = join(base.absoluteString, path)
        let query = query.contains { $0.0 == "prettyPrint" } ? query : query + [("prettyPrint", "false")]
        if !query.isEmpty {
            text += "?" + query.map { URLEncoding.component($0.0) + "=" + URLEncoding.component($0.1) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw GoogleAPIError.invalidResponse("cannot build a URL from '\(text)'") }
        return url
    }

    /// A Sheets API URL; `path` is percent-encoded already (use `URLEncoding.component` for ids).
    public func sheetsURL(path: String, query: [(String, String)] = []) throws(GoogleAPIError) -> URL {
        try Self.url(sheets, path: path, query: query)
    }

    /// A Drive API URL (under www.googleapis.com).
    public func driveURL(path: String, query: [(String, String)] = []) throws(GoogleAPIError) -> URL {
        try Self.url(googleapis, path: path, query: query)
    }
}
