import Interchange

/// An error answer in Google's JSON shape (`{"error":{"code","message","errors","status"}}`).
struct GoogleAPIError: Error, Sendable, Equatable {
    var code: Int
    var message: String
    var status: String
    var reason: String
    var domain = "global"
    var retryAfterSeconds: Int?

    static func invalidArgument(_ message: String) -> GoogleAPIError {
        GoogleAPIError(code: 400, message: message, status: "INVALID_ARGUMENT", reason: "badRequest")
    }

    static func notFound(_ message: String) -> GoogleAPIError {
        GoogleAPIError(code: 404, message: message, status: "NOT_FOUND", reason: "notFound")
    }

    static func unauthenticated() -> GoogleAPIError {
        GoogleAPIError(
            code: 401,
            message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
                + "other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            status: "UNAUTHENTICATED", reason: "authError")
    }

    /// Google's answer to a write outside a tab's grid; the tab name is always quoted, as Google quotes it.
    static func gridLimits(_ sheet: SheetState, rows: Range<Int>, columns: Range<Int>, prefix: String = "") -> GoogleAPIError {
        let a1 = A1Range.format(sheet: sheet.title, rows: rows, columns: columns)
        let quoted = a1.hasPrefix("'") ? a1 : "'" + sheet.title + "'" + a1.dropFirst(A1Range.quotedSheetName(sheet.title).count)
        return .invalidArgument(
            "\(prefix)Range (\(quoted)) exceeds grid limits. Max rows: \(sheet.rowCount), max columns: \(sheet.columnCount)")
    }

    /// Google's answer to a request body over 10 MiB.
    static func payloadTooLarge() -> GoogleAPIError {
        .invalidArgument("Request payload size exceeds the limit: \(EmulatorLimits.maxPayloadBytes) bytes.")
    }

    /// Google's answer to a cell value over 50,000 characters.
    static func cellTooLong() -> GoogleAPIError {
        .invalidArgument("Your input contains more than the maximum of \(EmulatorLimits.maxCellCharacters) characters in a single cell.")
    }

    /// Google's answer to a change that would take a spreadsheet past 10 million cells.
    static func tooManyCells() -> GoogleAPIError {
        .invalidArgument(
            "This action would increase the number of cells in the workbook above the limit of \(EmulatorLimits.maxCells) cells.")
    }

    /// Drive's answer when a service account creates a file in My Drive (it has no storage of its own).
    static func serviceAccountStorage() -> GoogleAPIError {
        GoogleAPIError(
            code: 403,
            message: "Service Accounts do not have storage quota. Leverage shared drives "
                + "(https://developers.google.com/workspace/drive/api/guides/about-shareddrives), or use OAuth delegation "
                + "(http://support.google.com/a/answer/7281227) instead.",
            status: "PERMISSION_DENIED", reason: "storageQuotaExceeded", domain: "usageLimits")
    }

    /// Sheets' answer to `spreadsheets.create` by a service account without storage.
    static func permissionDenied() -> GoogleAPIError {
        GoogleAPIError(code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED", reason: "forbidden")
    }

    static func unimplemented(_ message: String) -> GoogleAPIError {
        GoogleAPIError(code: 501, message: message, status: "UNIMPLEMENTED", reason: "notImplemented")
    }

    static func tooManyRequests(retryAfter: Int?) -> GoogleAPIError {
        GoogleAPIError(
            code: 429,
            message: "Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user'.",
            status: "RESOURCE_EXHAUSTED", reason: "rateLimitExceeded", domain: "usageLimits", retryAfterSeconds: retryAfter)
    }

    static func rateLimitExceeded() -> GoogleAPIError {
        GoogleAPIError(
            code: 403, message: "Rate Limit Exceeded", status: "PERMISSION_DENIED", reason: "rateLimitExceeded",
            domain: "usageLimits")
    }

    static func serverError(code: Int) -> GoogleAPIError {
        switch code {
        case 503:
            return GoogleAPIError(
                code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE", reason: "backendError")
        case 502: return GoogleAPIError(code: 502, message: "Bad Gateway", status: "UNAVAILABLE", reason: "backendError")
        case 504: return GoogleAPIError(code: 504, message: "Deadline exceeded.", status: "DEADLINE_EXCEEDED", reason: "backendError")
        default: return GoogleAPIError(code: code, message: "Internal error encountered.", status: "INTERNAL", reason: "backendError")
        }
    }

    /// A status code answered by fault injection, with the body Google sends for it.
    static func injected(status code: Int, retryAfter: Int?) -> GoogleAPIError {
        var error: GoogleAPIError
        switch code {
        case 429: error = .tooManyRequests(retryAfter: retryAfter)
        case 403: error = .rateLimitExceeded()
        case 401: error = .unauthenticated()
        case 400: error = .invalidArgument("Invalid request.")
        case 404: error = .notFound("Requested entity was not found.")
        default: error = .serverError(code: code)
        }
        error.retryAfterSeconds = retryAfter
        return error
    }

    var json: JSONValue {
        [
            "error": [
                "code": .number(code),
                "message": .string(message),
                "errors": [["message": .string(message), "domain": .string(domain), "reason": .string(reason)]],
                "status": .string(status),
            ]
        ]
    }
}
