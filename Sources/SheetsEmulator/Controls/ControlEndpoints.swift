import Foundation
import Interchange
import _CryptoExtras

/// The test controls over HTTP (`/_emulator/...`), for a client in another process.
extension SheetsEmulator {
    func handleControl(_ request: EmulatorRequest) -> EmulatorResponse {
        let segments = request.rawPath.split(separator: "/").dropFirst().map { String($0).removingPercentEncoding ?? String($0) }
        do {
            // A body that is not JSON is refused: read as `{}`, it would act on defaults nobody asked for.
            let body = try request.jsonBody() ?? .object([:])
            return .json(try control(request.method, segments, body: body))
        } catch let error as EmulatorError {
            return .json(["error": .string(error.message)], status: 400)
        } catch let error as GoogleAPIError {
            return .json(["error": .string(error.message)], status: 400)
        } catch {
            return .json(["error": .string("\(error)")], status: 400)
        }
    }

    private func control(_ method: String, _ path: [String], body json: JSONValue) throws -> JSONValue {
        let body = ControlBody(json: json)
        if path.count >= 4, path[0] == "spreadsheets", path[2] == "tabs", let answer = try tabControl(method, path, body: json) {
            return answer
        }
        if path.count == 2, path[0] == "gates" {
            // A request held on a gate (fault kind "hold") goes on once the gate is opened.
            if method == "POST" { open(gate: path[1]) }
            return ["held": .bool(isHeld(at: path[1]))]
        }
        switch (method, path) {
        case ("GET", ["health"]):
            return ["ok": true, "baseURL": .string(baseURL)]
        case ("GET", ["counters"]):
            return countersJSON()
        case ("POST", ["reset-counters"]):
            resetCounters()
        case ("GET", ["requests"]):
            return .array(requestLog.map(Self.json))
        case ("GET", ["violations"]):
            return .array(violations.map { ["method": .string($0.method), "path": .string($0.path), "message": .string($0.message)] })
        case ("POST", ["faults"]):
            try injectFault(from: body)
        case ("DELETE", ["faults"]):
            clearFaults()
        case ("POST", ["clock", "advance"]):
            advanceClock(by: TimeInterval(try body.int("seconds")))
            return ["now": .string(EmulatedDriveFile.timestamp(now))]
        case ("POST", ["authorized-users"]):
            return try registerAuthorizedUser(from: body)
        case ("POST", ["service-accounts"]):
            registerServiceAccount(
                email: try body.string("email"), publicKey: try .init(pemRepresentation: try body.string("publicKeyPem")))
        case ("POST", ["auth-codes"]):
            try registerAuthorizationCode(from: body)
        case ("POST", ["tokens", "revoke-all"]):
            revokeAllAccessTokens()
        case ("POST", ["spreadsheets"]):
            return ["spreadsheetId": .string(try createSpreadsheet(from: json))]
        default:
            throw EmulatorError("unknown control \(method) /_emulator/\(path.joined(separator: "/"))")
        }
        return .object([:])
    }

    /// `/_emulator/spreadsheets/{id}/tabs/{tab}[/{edit}]`: reads a tab's cells or makes a person's edit; nil for any other method.
    private func tabControl(_ method: String, _ path: [String], body: JSONValue) throws -> JSONValue? {
        let (id, tab) = (path[1], path[3])
        if method == "GET", path.count == 4 {
            let rows = try cells(spreadsheetId: id, tab: tab).map { row in
                JSONValue.array(row.map { ValueRenderer(valueOption: .unformatted).render($0) })
            }
            return ["rows": .array(rows)]
        }
        if method == "POST", path.count == 5 {
            try personEdit(path[4], spreadsheetId: id, tab: tab, body: body)
            return ["version": .number(version(of: id) ?? 0)]
        }
        return nil
    }

    private func countersJSON() -> JSONValue {
        let c = counters
        return [
            "totalRequests": .number(c.totalRequests), "requestBytes": .number(c.requestBytes),
            "responseBytes": .number(c.responseBytes),
            "requestsByEndpoint": .object(
                JSONObject(c.requestsByEndpoint.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value)) })),
        ]
    }

    private static func json(_ record: EmulatorRequestRecord) -> JSONValue {
        var out = JSONObjectBuilder()
        out.set("number", record.number)
        out.set("method", record.method)
        out.set("path", record.path)
        out.set("query", .array(record.query.map { [$0.name: .string($0.value)] as JSONValue }))
        out.set("body", record.bodyText)
        out.set("endpoint", record.endpoint)
        out.set("status", record.status)
        return out.value
    }

    /// A fault on the n-th call of an endpoint (default the first) or on a request number.
    private func injectFault(from body: ControlBody) throws {
        let phase: FaultPhase = body["phase"]?.stringValue == "after" ? .afterEffect : .beforeEffect
        let trigger: FaultTrigger
        if let endpoint = body["endpoint"]?.stringValue {
            trigger = .endpoint(endpoint, occurrence: body["occurrence"]?.integerValue ?? 1)
        } else {
            trigger = .requestNumber(try body.int("request"))
        }
        injectFault(try Self.fault(from: body.json), at: trigger, phase: phase)
    }

    /// Registers an authorized user and answers with its credentials file.
    private func registerAuthorizedUser(from body: ControlBody) throws -> JSONValue {
        let (id, secret, token) = (try body.string("clientId"), try body.string("clientSecret"), try body.string("refreshToken"))
        registerAuthorizedUser(clientId: id, clientSecret: secret, refreshToken: token)
        return try JSONValue.parse(authorizedUserCredentialsJSON(clientId: id, clientSecret: secret, refreshToken: token))
    }

    private func registerAuthorizationCode(from body: ControlBody) throws {
        registerAuthorizationCode(
            try body.string("code"), clientId: try body.string("clientId"), clientSecret: try body.string("clientSecret"),
            redirectURI: body["redirectUri"]?.stringValue, codeChallenge: body["codeChallenge"]?.stringValue,
            codeChallengeMethod: body["codeChallengeMethod"]?.stringValue ?? "S256")
    }

    /// Creates a spreadsheet from `{title, tabs: [{name, rows}]}` and returns its id.
    private func createSpreadsheet(from body: JSONValue) throws -> String {
        let tabs = (body["tabs"]?.arrayValue ?? []).map { tab in
            EmulatedTab(
                name: tab["name"]?.stringValue ?? "Sheet1",
                typed: (tab["rows"]?.arrayValue ?? []).map { ($0.arrayValue ?? []).map { $0.stringValue ?? $0.serializedString() } })
        }
        return try createSpreadsheet(title: body["title"]?.stringValue ?? "Untitled spreadsheet", tabs: tabs)
    }

    private func personEdit(_ action: String, spreadsheetId id: String, tab: String, body: JSONValue) throws {
        switch action {
        case "type":
            try typeCell(spreadsheetId: id, tab: tab, at: body["cell"]?.stringValue ?? "", text: body["text"]?.stringValue ?? "")
        case "insert-row":
            try insertRow(
                spreadsheetId: id, tab: tab, at: body["index"]?.integerValue ?? 1,
                typed: (body["typed"]?.arrayValue ?? []).compactMap(\.stringValue))
        case "delete-row":
            try deleteRow(spreadsheetId: id, tab: tab, at: body["index"]?.integerValue ?? -1)
        case "sort":
            try sortTab(
                spreadsheetId: id, tab: tab, byColumn: body["column"]?.integerValue ?? 0,
                ascending: body["ascending"]?.boolValue ?? true, headerRows: body["headerRows"]?.integerValue ?? 1)
        case "move-column":
            try moveColumn(spreadsheetId: id, tab: tab, from: body["from"]?.integerValue ?? 0, to: body["to"]?.integerValue ?? 0)
        default:
            throw EmulatorError("unknown person edit '\(action)' (type, insert-row, delete-row, sort, move-column)")
        }
    }

    private static func fault(from body: JSONValue) throws -> EmulatorFault {
        switch body["kind"]?.stringValue ?? "status" {
        case "status": return .status(body["status"]?.integerValue ?? 503, retryAfter: body["retryAfter"]?.integerValue)
        case "rateLimitExceeded": return .rateLimitExceeded
        case "delay": return .delay(.milliseconds(body["delayMs"]?.integerValue ?? 1000))
        case "hold": return .hold(gate: body["gate"]?.stringValue ?? "gate")
        case "drop": return .dropConnection
        case "reset": return .resetConnection
        case "truncate": return .truncateBody(keepingBytes: body["keepBytes"]?.integerValue ?? 10)
        case "echo": return .echoRequest
        case let other:
            throw EmulatorError("unknown fault kind '\(other)' (status, rateLimitExceeded, delay, hold, drop, reset, truncate, echo)")
        }
    }
}

/// A control request's JSON body, with the required fields it names.
private struct ControlBody {
    let json: JSONValue

    subscript(key: String) -> JSONValue? { json[key] }

    func int(_ key: String) throws -> Int {
        guard let value = json[key]?.integerValue else { throw EmulatorError("control request needs an integer '\(key)'") }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let value = json[key]?.stringValue else { throw EmulatorError("control request needs a string '\(key)'") }
        return value
    }
}
