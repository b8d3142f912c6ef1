import Foundation
import Interchange

/// Where a request goes before any checking.
enum EmulatorRoute: Sendable {
    case token
    case uploadSession(String)
    case method(MatchedMethod)
    case unknown(pathKnown: Bool)

    var endpoint: String? {
        switch self {
        case .token: return "oauth2.token"
        case .uploadSession: return "drive.uploadSession"
        case .method(let match): return match.method.id
        case .unknown: return nil
        }
    }
}

extension SheetsEmulator {
    /// Runs one request through counting, fault injection, checking, auth and its handler.
    func process(_ request: EmulatorRequest) async -> EmulatorOutcome {
        await EmulatorResponse.$compact.withValue(request.query("prettyPrint") == "false") { await processAnswering(request) }
    }

    private func processAnswering(_ request: EmulatorRequest) async -> EmulatorOutcome {
        if request.rawPath.hasPrefix("/_emulator/") {
            let response = handleControl(request)
            if request.method != "GET" { saveStateOrSayWhy() }
            return .respond(response)
        }
        let catalog: DiscoveryCatalog
        switch DiscoveryCatalog.bundled {
        case .success(let loaded): catalog = loaded
        case .failure(let error):
            return .respond(.error(GoogleAPIError(code: 500, message: error.message, status: "INTERNAL", reason: "backendError")))
        }
        let route = Self.route(request, catalog: catalog)
        let (number, armed) = world.withLock { $0.admit(request, endpoint: route.endpoint) }
        var outcome: EmulatorOutcome
        if let armed, armed.phase == .beforeEffect {
            if armed.fault.waits {
                await wait(armed.fault)
                outcome = .respond(world.withLock { Self.handle(request, route: route, catalog: catalog, world: &$0) })
            } else {
                // The answer the request would have had, computed on a scratch copy so nothing changes.
                var scratch = world.read { $0 }
                let wouldBe = Self.handle(request, route: route, catalog: catalog, world: &scratch)
                outcome = Self.outcome(of: armed.fault, replacing: wouldBe, request: request)
            }
        } else {
            let response = world.withLock { Self.handle(request, route: route, catalog: catalog, world: &$0) }
            outcome = .respond(response)
            if let armed {
                if armed.fault.waits {
                    await wait(armed.fault)
                } else {
                    outcome = Self.outcome(of: armed.fault, replacing: response, request: request)
                }
            }
        }
        world.withLock { $0.finish(number, outcome: outcome) }
        if request.method != "GET" { saveStateOrSayWhy() }
        return outcome
    }

    /// Saves the state file after a change; a failure is told on stderr (the change stays in memory,
    /// but a restart would not see it), never passed over.
    private func saveStateOrSayWhy() {
        do {
            try saveState()
        } catch {
            FileHandle.standardError.write(Data("sheetsync-emulator: cannot save the state file: \(error)\n".utf8))
        }
    }

    static func route(_ request: EmulatorRequest, catalog: DiscoveryCatalog) -> EmulatorRoute {
        if request.rawPath == "/token" && request.method == "POST" { return .token }
        if let upload = request.query("upload_id"), request.rawPath.hasPrefix("/upload/") || request.rawPath.hasPrefix("/resumable/") {
            return .uploadSession(upload)
        }
        let (match, pathKnown) = catalog.match(httpMethod: request.method, rawPath: request.rawPath)
        if let match { return .method(match) }
        return .unknown(pathKnown: pathKnown)
    }

    /// Plays a fault that only waits (a delay, a hold). Cancelled (the server stopping), the request
    /// is only answered sooner.
    private func wait(_ fault: EmulatorFault) async {
        switch fault {
        case .delay(let duration):
            try? await Task.sleep(for: duration)
        case .hold(let gate):
            while !Task.isCancelled, !world.read({ $0.openGates.contains(gate) }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
        default:
            break
        }
    }

    static func outcome(of fault: EmulatorFault, replacing response: EmulatorResponse, request: EmulatorRequest) -> EmulatorOutcome {
        switch fault {
        case .echoRequest:
            let headers = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
            let echoed = "\(request.method) \(request.rawPath)\n\(headers)\n\n\(String(decoding: request.body, as: UTF8.self))"
            return .respond(.error(.invalidArgument("Invalid request: \(echoed)")))
        case .status(let code, let retryAfter): return .respond(.error(.injected(status: code, retryAfter: retryAfter)))
        case .rateLimitExceeded: return .respond(.error(.rateLimitExceeded()))
        case .dropConnection: return .drop(reset: false)
        case .resetConnection: return .drop(reset: true)
        case .truncateBody(let keep): return .truncate(response, keepingBytes: max(0, min(keep, response.body.count - 1)))
        case .delay, .hold: return .respond(response)
        }
    }

    /// Checks and serves one request against the world; the caller holds the lock.
    static func handle(_ request: EmulatorRequest, route: EmulatorRoute, catalog: DiscoveryCatalog, world: inout EmulatorWorld)
        -> EmulatorResponse
    {
        do throws(GoogleAPIError) {
            switch route {
            case .token:
                return TokenEndpoint.handle(request, world: &world)
            case .unknown(let pathKnown):
                let message =
                    pathKnown
                    ? "Method \(request.method) is not allowed on \(request.rawPath) by the discovery documents."
                    : "The requested URL \(request.rawPath) was not found: it matches no discovery method."
                world.violations.append(DiscoveryViolation(method: request.method, path: request.rawPath, endpoint: nil, message: message))
                return .error(GoogleAPIError(code: 404, message: message, status: "NOT_FOUND", reason: "notFound"))
            case .uploadSession(let id):
                try world.authorize(request)
                return try DriveUploads.continueSession(id, request: request, world: &world)
            case .method(let match):
                // Google refuses large bodies before it looks at them (uploads have their own, larger limits).
                if !match.method.isUpload, request.body.count > EmulatorLimits.maxPayloadBytes { return .error(.payloadTooLarge()) }
                let checked = try checkedBody(request, match: match)
                let problems = DiscoveryValidator(catalog: catalog).problems(for: match, query: request.query, jsonBody: checked)
                if let first = problems.first {
                    for problem in problems {
                        world.violations.append(
                            DiscoveryViolation(method: request.method, path: request.rawPath, endpoint: match.method.id, message: problem))
                    }
                    return .error(.invalidArgument(first))
                }
                var request = request
                if !match.method.isUpload { request.parsedBody = checked }
                let subject = try world.authorize(request)
                try world.checkStorage(for: match, request: request, subject: subject)
                return try serve(request, match: match, world: &world)
            }
        } catch {
            return .error(error)
        }
    }

    /// The JSON a request carries for checking: the body, or a multipart upload's metadata part.
    private static func checkedBody(_ request: EmulatorRequest, match: MatchedMethod) throws(GoogleAPIError) -> JSONValue? {
        guard match.method.isUpload else { return try request.jsonBody() }
        switch request.query("uploadType") {
        case "multipart": return try MultipartBody.parse(request).metadata
        case "resumable": return try request.jsonBody()
        default: return nil
        }
    }

    private static func serve(_ request: EmulatorRequest, match: MatchedMethod, world: inout EmulatorWorld) throws(GoogleAPIError)
        -> EmulatorResponse
    {
        let id = match.method.id
        if id.hasPrefix("sheets.spreadsheets.values.") {
            return try SheetsValues.serve(id, request: request, match: match, world: &world)
        }
        if id.hasPrefix("sheets.") {
            return try SheetsSpreadsheets.serve(id, request: request, match: match, world: &world)
        }
        if id.hasPrefix("drive.files.") {
            return try DriveFiles.serve(id, request: request, match: match, world: &world)
        }
        throw .unimplemented("The emulator does not implement \(id).")
    }
}

extension EmulatorWorld {
    /// Numbers and logs a request and picks the fault armed for it, if any.
    mutating func admit(_ request: EmulatorRequest, endpoint: String?) -> (Int, ArmedFault?) {
        counters.totalRequests += 1
        counters.requestsByEndpoint[endpoint ?? "unknown", default: 0] += 1
        counters.requestBytes += request.body.count
        let number = counters.totalRequests
        let occurrence = counters.requestsByEndpoint[endpoint ?? "unknown"] ?? 0
        let index = faults.firstIndex { armed in
            switch armed.trigger {
            case .requestNumber(let n): return n == number
            case .endpoint(let name, let n): return name == endpoint && n == occurrence
            }
        }
        let armed = index.map { faults.remove(at: $0) }
        log.append(
            EmulatorRequestRecord(
                number: number, method: request.method, path: request.path, query: request.query, body: request.body,
                endpoint: endpoint, status: nil, responseBytes: 0, fault: armed?.fault))
        return (number, armed)
    }

    mutating func finish(_ number: Int, outcome: EmulatorOutcome) {
        var status: Int?
        var bytes = 0
        switch outcome {
        case .respond(let response): (status, bytes) = (response.status, response.body.count)
        case .truncate(let response, let keep): (status, bytes) = (response.status, keep)
        case .drop: break
        }
        counters.responseBytes += bytes
        if let index = log.lastIndex(where: { $0.number == number }) {
            log[index].status = status
            log[index].responseBytes = bytes
        }
    }

    /// Requires a live bearer token (header or `access_token` parameter); returns whose token it is.
    @discardableResult
    func authorize(_ request: EmulatorRequest) throws(GoogleAPIError) -> String {
        var token = request.query("access_token")
        if let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard let token, let record = persistent.accessTokens[token], !record.revoked, record.expiresAt > now else {
            throw .unauthenticated()
        }
        return record.subject
    }

    /// Service accounts have no Drive storage: with the refusal on (as on Google since 2025), creating a
    /// spreadsheet or a file with content in My Drive fails; folders take no storage and still work.
    func checkStorage(for match: MatchedMethod, request: EmulatorRequest, subject: String) throws(GoogleAPIError) {
        guard serviceAccountStorageRefused, persistent.serviceAccountKeys[subject] != nil else { return }
        switch match.method.id {
        case "sheets.spreadsheets.create":
            throw .permissionDenied()
        case "drive.files.create":
            if match.method.isUpload { throw .serviceAccountStorage() }
            let metadata = try request.jsonBody()
            if metadata?["mimeType"]?.stringValue != EmulatedDriveFile.folderMimeType { throw .serviceAccountStorage() }
        default:
            return
        }
    }
}
