import Foundation
import Interchange

/// One piece of a path template segment: literal text or a `{variable}`.
enum TemplatePart: Sendable, Equatable {
    case literal(String)
    /// `{+name}` (reserved expansion) may span several segments.
    case variable(String, reserved: Bool)
}

/// One API (Sheets v4 or Drive v3) from its discovery document.
struct DiscoveryAPI: Sendable {
    var name: String
    var schemas: [String: JSONValue]
    var globalParameters: [String: JSONValue]
}

/// One method of a discovery document, reachable at one path template.
struct DiscoveryMethod: Sendable {
    var id: String
    var httpMethod: String
    var template: [[TemplatePart]]
    var parameters: [String: JSONValue]
    var requestSchema: String?
    /// Reached through a media upload path (`/upload/...`), which takes `uploadType`.
    var isUpload: Bool
    var apiIndex: Int
}

/// The path variables and method a request path resolved to.
struct MatchedMethod: Sendable {
    var method: DiscoveryMethod
    var pathParameters: [String: String]
}

/// The methods of the bundled Sheets and Drive discovery documents, for routing and checking requests.
struct DiscoveryCatalog: Sendable {
    var apis: [DiscoveryAPI] = []
    var methods: [DiscoveryMethod] = []

    /// The documents shipped in the module's `Discovery` folder, loaded once.
    static let bundled: Result<DiscoveryCatalog, EmulatorError> = {
        do {
            var catalog = DiscoveryCatalog()
            for name in ["sheets.v4", "drive.v3"] {
                guard
                    let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Discovery")
                        ?? Bundle.module.url(forResource: name, withExtension: "json")
                else { throw EmulatorError("discovery document '\(name).json' is missing from the SheetsEmulator bundle") }
                let data = try Data(contentsOf: url)
                try catalog.add(document: try JSONValue.parse(Array(data)), named: name)
            }
            return .success(catalog)
        } catch let error as EmulatorError {
            return .failure(error)
        } catch {
            return .failure(EmulatorError("cannot load the discovery documents: \(error)", underlying: error))
        }
    }()

    mutating func add(document: JSONValue, named name: String) throws(EmulatorError) {
        let servicePath = document["servicePath"]?.stringValue ?? ""
        let api = DiscoveryAPI(
            name: document["name"]?.stringValue ?? name,
            schemas: Dictionary(uniqueKeysWithValues: (document["schemas"]?.members ?? []).map { ($0.key, $0.value) }),
            globalParameters: Dictionary(uniqueKeysWithValues: (document["parameters"]?.members ?? []).map { ($0.key, $0.value) }))
        apis.append(api)
        collect(document["resources"], servicePath: servicePath, apiIndex: apis.count - 1)
        guard !methods.isEmpty else { throw EmulatorError("discovery document '\(name)' declares no methods") }
    }

    private mutating func collect(_ resources: JSONValue?, servicePath: String, apiIndex: Int) {
        for (_, resource) in resources?.members ?? [] {
            for (_, method) in resource["methods"]?.members ?? [] {
                guard let id = method["id"]?.stringValue, let http = method["httpMethod"]?.stringValue,
                    let path = method["flatPath"]?.stringValue ?? method["path"]?.stringValue
                else { continue }
                let parameters = Dictionary(uniqueKeysWithValues: (method["parameters"]?.members ?? []).map { ($0.key, $0.value) })
                let schema = method["request"]?["$ref"]?.stringValue
                func add(_ fullPath: String, upload: Bool) {
                    methods.append(
                        DiscoveryMethod(
                            id: id, httpMethod: http, template: Self.parseTemplate(fullPath), parameters: parameters,
                            requestSchema: schema, isUpload: upload, apiIndex: apiIndex))
                }
                add("/" + servicePath + path, upload: false)
                for (_, proto) in method["mediaUpload"]?["protocols"]?.members ?? [] {
                    if let uploadPath = proto["path"]?.stringValue { add(uploadPath, upload: true) }
                }
            }
            collect(resource["resources"], servicePath: servicePath, apiIndex: apiIndex)
        }
    }

    static func parseTemplate(_ path: String) -> [[TemplatePart]] {
        path.split(separator: "/").map { segment in
            var parts: [TemplatePart] = []
            var rest = Substring(segment)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
                var name = rest[rest.index(after: open)..<close]
                let reserved = name.hasPrefix("+")
                if reserved { name = name.dropFirst() }
                parts.append(.variable(String(name), reserved: reserved))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { parts.append(.literal(String(rest))) }
            return parts
        }
    }

    /// Resolves a raw (still percent-encoded) path; the template with the most literal text wins.
    /// `pathKnown` tells a path that exists for another HTTP method from an unknown one.
    func match(httpMethod: String, rawPath: String) -> (match: MatchedMethod?, pathKnown: Bool) {
        let segments = rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        var best: (MatchedMethod, Int)?
        var pathKnown = false
        for method in methods {
            guard let (variables, score) = Self.match(template: method.template, segments: segments[...]) else { continue }
            pathKnown = true
            guard method.httpMethod == httpMethod else { continue }
            if let current = best, current.1 >= score { continue }
            best = (MatchedMethod(method: method, pathParameters: variables), score)
        }
        return (best?.0, pathKnown)
    }

    private static func match(template: [[TemplatePart]], segments: ArraySlice<String>) -> ([String: String], Int)? {
        guard let first = template.first else { return segments.isEmpty ? ([:], 0) : nil }
        if case .variable(let name, true) = first.first, first.count == 1 {
            guard !segments.isEmpty else { return nil }
            return ([name: segments.joined(separator: "/").removingPercentEncoding ?? ""], 0)
        }
        guard let segment = segments.first, let (variables, score) = matchSegment(first, segment) else { return nil }
        guard let (rest, restScore) = match(template: Array(template.dropFirst()), segments: segments.dropFirst()) else { return nil }
        return (variables.merging(rest) { a, _ in a }, score + restScore)
    }

    /// A segment is literal text around at most one variable (`{spreadsheetId}:batchUpdate`).
    private static func matchSegment(_ parts: [TemplatePart], _ segment: String) -> ([String: String], Int)? {
        var prefix = ""
        var suffix = ""
        var variable: String?
        for part in parts {
            switch part {
            case .literal(let text): if variable == nil { prefix += text } else { suffix += text }
            case .variable(let name, _): variable = name
            }
        }
        guard let variable else { return segment == prefix ? ([:], prefix.count + 1) : nil }
        guard segment.count > prefix.count + suffix.count, segment.hasPrefix(prefix), segment.hasSuffix(suffix) else { return nil }
        let raw = segment.dropFirst(prefix.count).dropLast(suffix.count)
        return ([variable: raw.removingPercentEncoding ?? String(raw)], prefix.count + suffix.count)
    }
}
