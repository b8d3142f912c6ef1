import Foundation
import Interchange

extension GoogleErrorDetails {
    /// Reads Google's error body, `{"error":{"code":403,"message":…,"status":…,"errors":[{"reason":…}]}}`,
    /// or the OAuth form `{"error":"invalid_grant","error_description":…}`; falls back to the raw text.
    public init(response: HTTPResponse, target: String) {
        // An error body that is not JSON falls back to its raw text below: reported, not dropped.
        let parsed = try? JSONValue.parse(response.body)
        if let error = parsed?["error"], let object = error.objectValue {
            var reasons: [String] = []
            for item in object["errors"]?.arrayValue ?? [] {
                if let reason = item["reason"]?.stringValue { reasons.append(reason) }
            }
            for item in object["details"]?.arrayValue ?? [] {
                if let reason = item["reason"]?.stringValue { reasons.append(reason) }
            }
            self.init(
                httpStatus: response.status, status: object["status"]?.stringValue, reasons: reasons,
                message: Redaction.redact(object["message"]?.stringValue ?? ""), target: target)
        } else if let code = parsed?["error"]?.stringValue {
            self.init(
                httpStatus: response.status, status: nil, reasons: [code],
                message: Redaction.redact(parsed?["error_description"]?.stringValue ?? ""), target: target)
        } else {
            let text = Redaction.redact(String(response.bodyText.prefix(300)))
            self.init(httpStatus: response.status, message: text.trimmingCharacters(in: .whitespacesAndNewlines), target: target)
        }
    }

    /// Reasons under which Google asks callers to back off and retry a 403.
    static let rateLimitReasons: Set<String> = ["rateLimitExceeded", "userRateLimitExceeded", "RATE_LIMIT_EXCEEDED"]

    /// Whether the same request may succeed after a pause.
    public var isRetryable: Bool {
        switch httpStatus {
        case 408, 429, 500...599: return true
        case 403: return reasons.contains { Self.rateLimitReasons.contains($0) }
        default: return false
        }
    }

    var isStorageQuotaExceeded: Bool { reasons.contains("storageQuotaExceeded") }
}

extension GoogleAPIError {
    /// The error for a final, unsuccessful response.
    static func from(_ response: HTTPResponse, request: HTTPRequest) -> GoogleAPIError {
        let details = GoogleErrorDetails(response: response, target: TransportError.target(of: request))
        return details.isStorageQuotaExceeded ? .storageQuotaExceeded(details) : .api(details)
    }
}
