import CCurl
import Foundation
import Logging

// libcurl calls these C functions with the exchange as user data; they cannot capture context.

let curlWriteBody: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        exchange.responseBody.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
    }
    return length
}

let curlWriteHeader: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
    exchange.receiveHeaderLine(line)
    return length
}

let curlProgress: curl_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    return exchange.cancellation.isCancelled ? 1 : 0
}

let curlDebug: curl_debug_callback = { _, type, data, size, context in
    guard let data, let context else { return 0 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    let bytes = data.withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
    exchange.logDebug(type, bytes)
    return 0
}

extension CurlExchange {
    /// Bodies beyond this many bytes are cut in the trace; uploads would drown it.
    static let traceBodyLimit = 2048

    /// Logs one piece of libcurl's trace, with every credential redacted.
    func logDebug(_ type: curl_infotype, _ bytes: [UInt8]) {
        let line: String
        switch type {
        case CURLINFO_TEXT:
            line = "* " + Redaction.redact(String(decoding: bytes, as: UTF8.self)).trimmingCharacters(in: .newlines)
        case CURLINFO_HEADER_OUT:
            line = "> " + Redaction.redact(String(decoding: bytes, as: UTF8.self)).trimmingCharacters(in: .newlines)
        case CURLINFO_HEADER_IN:
            line = "< " + Redaction.redact(String(decoding: bytes, as: UTF8.self)).trimmingCharacters(in: .newlines)
        case CURLINFO_DATA_OUT:
            line = "> " + Self.describeBody(bytes)
        case CURLINFO_DATA_IN:
            line = "< " + Self.describeBody(bytes)
        default:
            return
        }
        logger.trace("\(line)")
    }

    static func describeBody(_ bytes: [UInt8]) -> String {
        guard let text = String(validating: bytes.prefix(traceBodyLimit), as: UTF8.self) else {
            return "<\(bytes.count) bytes of binary data>"
        }
        let redacted = Redaction.redact(text)
        return bytes.count > traceBodyLimit ? redacted + " … (\(bytes.count) bytes)" : redacted
    }

    /// Turns a libcurl failure into a `TransportError` that says which kind it was.
    func mapError(_ code: CURLcode, handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>) -> TransportError {
        var detail = String(cString: errorBuffer)
        if detail.isEmpty { detail = String(cString: sheetsync_curl_easy_strerror(code)) }
        let kind: TransportError.Kind
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .dnsFailure
        case CURLE_COULDNT_CONNECT:
            kind = .connectionRefused
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
            CURLE_HTTP2_STREAM, CURLE_HTTP3:
            kind = .connectionReset
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            kind = .tls
        case CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
        default:
            kind = .other
        }
        return TransportError(kind: kind, request: request, detail: Redaction.redact(detail))
    }
}
