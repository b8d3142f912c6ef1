import Interchange

/// Checks a request's query parameters and JSON body against its discovery method.
struct DiscoveryValidator {
    var catalog: DiscoveryCatalog

    /// Every problem found; empty when the request keeps to the contract.
    func problems(for match: MatchedMethod, query: [EmulatorQueryItem], jsonBody: JSONValue?) -> [String] {
        let method = match.method
        let api = catalog.apis[method.apiIndex]
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for item in query { seen[item.name, default: 0] += 1 }
        for item in query {
            let declared = method.parameters[item.name].flatMap { $0["location"]?.stringValue == "query" ? $0 : nil }
            guard let parameter = declared ?? api.globalParameters[item.name] else {
                problems.append(
                    "Invalid JSON payload received. Unknown name \"\(item.name)\": Cannot bind query parameter. "
                        + "Field '\(item.name)' could not be found in request message.")
                continue
            }
            if let problem = Self.check(item.value, parameter: parameter, name: item.name) { problems.append(problem) }
            if seen[item.name, default: 0] > 1, parameter["repeated"]?.boolValue != true {
                problems.append(
                    "Invalid request: query parameter '\(item.name)' is not repeated but was given \(seen[item.name] ?? 0) times.")
                seen[item.name] = 0
            }
        }
        if method.isUpload, !query.contains(where: { $0.name == "uploadType" }) {
            problems.append("Invalid request: the upload path needs an uploadType query parameter (media, multipart or resumable).")
        }
        if method.isUpload, let type = query.first(where: { $0.name == "uploadType" })?.value,
            !["media", "multipart", "resumable"].contains(type)
        {
            problems.append("Invalid value at 'uploadType', \"\(type)\": expected media, multipart or resumable.")
        }
        for (name, parameter) in method.parameters
        where parameter["required"]?.boolValue == true
            && parameter["location"]?.stringValue == "query" && seen[name] == nil
        {
            problems.append("Invalid request: required query parameter '\(name)' is missing.")
        }
        if let jsonBody {
            if let schemaName = method.requestSchema {
                problems += SchemaChecker(api: api).problems(jsonBody, schema: ["$ref": .string(schemaName)], at: "")
            } else if !jsonBody.isNull {
                problems.append("Invalid JSON payload received. Method '\(method.id)' takes no request body.")
            }
        }
        return problems
    }

    /// A query value's type and enum check.
    static func check(_ value: String, parameter: JSONValue, name: String) -> String? {
        if let allowed = parameter["enum"]?.arrayValue?.compactMap(\.stringValue), !allowed.contains(value) {
            return "Invalid value at '\(name)' (TYPE_ENUM), \"\(value)\""
        }
        switch parameter["type"]?.stringValue {
        case "integer" where Int(value) == nil:
            return "Invalid value at '\(name)' (TYPE_INT32), \"\(value)\""
        case "boolean" where !["true", "false"].contains(value):
            return "Invalid value at '\(name)' (TYPE_BOOL), \"\(value)\""
        default:
            return nil
        }
    }
}

/// Walks a JSON value along a discovery schema (`$ref`, properties, items, additionalProperties).
struct SchemaChecker {
    var api: DiscoveryAPI

    func problems(_ value: JSONValue, schema: JSONValue, at path: String) -> [String] {
        if value.isNull { return [] }
        if let ref = schema["$ref"]?.stringValue {
            guard let resolved = api.schemas[ref] else { return ["discovery schema '\(ref)' is missing (at '\(path)')"] }
            return problems(value, schema: resolved, at: path)
        }
        let shown = path.isEmpty ? "" : " at '\(path)'"
        switch schema["type"]?.stringValue {
        case "object":
            guard let members = value.objectValue else { return ["Invalid JSON payload received. Expected an object\(shown)."] }
            let properties = schema["properties"]
            let additional = schema["additionalProperties"]
            var found: [String] = []
            for (key, member) in members.members {
                let child = path.isEmpty ? key : path + "." + key
                if let property = properties?[key] {
                    found += problems(member, schema: property, at: child)
                } else if let additional {
                    found += problems(member, schema: additional, at: child)
                } else if properties != nil {
                    found.append("Invalid JSON payload received. Unknown name \"\(key)\"\(shown): Cannot find field.")
                }
            }
            return found
        case "array":
            guard let elements = value.arrayValue else { return ["Invalid JSON payload received. Expected an array\(shown)."] }
            guard let items = schema["items"] else { return [] }
            return elements.enumerated().flatMap { problems($1, schema: items, at: "\(path)[\($0)]") }
        case "string":
            let format = schema["format"]?.stringValue
            if format == "int64" || format == "uint64", case .number = value { return [] }
            guard let text = value.stringValue else { return ["Invalid value\(shown) (TYPE_STRING), \(value.serializedString())"] }
            if let allowed = schema["enum"]?.arrayValue?.compactMap(\.stringValue), !allowed.contains(text) {
                return ["Invalid value\(shown) (TYPE_ENUM), \"\(text)\""]
            }
            return []
        case "integer":
            return value.integerValue == nil ? ["Invalid value\(shown) (TYPE_INT32), \(value.serializedString())"] : []
        case "number":
            return value.doubleValue == nil && !["NaN", "Infinity", "-Infinity"].contains(value.stringValue ?? "")
                ? ["Invalid value\(shown) (TYPE_DOUBLE), \(value.serializedString())"] : []
        case "boolean":
            return value.boolValue == nil ? ["Invalid value\(shown) (TYPE_BOOL), \(value.serializedString())"] : []
        default:
            return []
        }
    }
}
