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
        GoogleAPIError(code: 403, message: "Rate Limit Exceeded", status: "PERMISSION_DENIED", reason: "rateLimitExceeded",
            domain: "usageLimits")
    }

    static func serverError(code: Int) -> GoogleAPIError {
        switch code {
        case 503: return GoogleAPIError(code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE", reason: "backendError")
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

    var json: EmulatorJSON {
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
