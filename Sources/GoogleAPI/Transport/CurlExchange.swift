import CCurl
import Foundation
import Logging

/// One request on one easy handle; owns every buffer libcurl points into until `perform` returns.
final class CurlExchange {
    let request: HTTPRequest
    let configuration: CurlTransport.Configuration
    let logger: Logger
    let cancellation: CurlCancellation
    let pool: CurlHandlePool
    var responseBody: [UInt8] = []
    var responseHeaders = HTTPHeaders()

    init(
        request: HTTPRequest, configuration: CurlTransport.Configuration, logger: Logger, cancellation: CurlCancellation,
        pool: CurlHandlePool
    ) {
        self.request = request
        self.configuration = configuration
        self.logger = logger
        self.cancellation = cancellation
        self.pool = pool
    }

    func perform() throws -> HTTPResponse {
        guard let pooled = pool.take() else {
            throw TransportError(kind: .other, request: request, detail: "curl_easy_init failed")
        }
        let handle = pooled.raw
        defer { pool.giveBack(pooled) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        // libcurl reads POSTFIELDS in place, so the body must outlive the transfer.
        let body = UnsafeMutablePointer<UInt8>.allocate(capacity: max(request.body.count, 1))
        if !request.body.isEmpty { body.initialize(from: request.body, count: request.body.count) }
        defer { body.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { sheetsync_curl_slist_free_all(headerList) }

        let unmanaged = Unmanaged.passUnretained(self)
        let context = unmanaged.toOpaque()
        try withExtendedLifetime(self) {
            try configure(handle, errorBuffer: errorBuffer, body: body, headerList: &headerList, context: context)
            let code = sheetsync_curl_easy_perform(handle)
            if code != CURLE_OK {
                throw mapError(code, handle: handle, errorBuffer: errorBuffer)
            }
        }
        var status = 0
        _ = sheetsync_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var connects = 0
        _ = sheetsync_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        var response = HTTPResponse(status: status, headers: responseHeaders, body: responseBody)
        response.newConnections = connects
        return response
    }

    private func check(_ code: CURLcode, _ option: String) throws {
        guard code == CURLE_OK else {
            let text = String(cString: sheetsync_curl_easy_strerror(code))
            throw TransportError(kind: .other, request: request, detail: "setting \(option) failed: \(text)")
        }
    }

    private func configure(
        _ handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>, body: UnsafeMutablePointer<UInt8>,
        headerList: inout UnsafeMutablePointer<curl_slist>?, context: UnsafeMutableRawPointer
    ) throws {
        try check(sheetsync_curl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString), "CURLOPT_URL")
        try check(sheetsync_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try check(sheetsync_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "CURLOPT_PROTOCOLS_STR")
        try check(sheetsync_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        try check(sheetsync_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "CURLOPT_SSL_VERIFYPEER")
        try check(sheetsync_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "CURLOPT_SSL_VERIFYHOST")
        try check(sheetsync_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "CURLOPT_FOLLOWLOCATION")
        // libcurl re-sends a request by itself when a reused connection dies before any answer, which could apply
        // a create twice: a request that must not repeat gets a connection of its own.
        if !request.isIdempotent {
            try check(sheetsync_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1), "CURLOPT_FRESH_CONNECT")
        }
        // An empty string asks for every encoding libcurl can decode (gzip, deflate, …).
        try check(sheetsync_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""), "CURLOPT_ACCEPT_ENCODING")
        let total = request.timeout ?? configuration.totalTimeout
        try check(sheetsync_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(total)), "CURLOPT_TIMEOUT_MS")
        let connect = min(configuration.connectTimeout, total)
        try check(
            sheetsync_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(connect)), "CURLOPT_CONNECTTIMEOUT_MS")
        try check(sheetsync_curl_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent), "CURLOPT_USERAGENT")
        try configureMethod(handle, body: body)
        try configureHeaders(handle, headerList: &headerList)
        try configureCallbacks(handle, context: context)
    }

    private func milliseconds(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded(.up)))
    }

    private func configureMethod(_ handle: UnsafeMutableRawPointer, body: UnsafeMutablePointer<UInt8>) throws {
        let sendsBody = !request.body.isEmpty || request.method == .post || request.method == .put || request.method == .patch
        switch request.method {
        case .get where request.body.isEmpty:
            try check(sheetsync_curl_setopt_long(handle, CURLOPT_HTTPGET, 1), "CURLOPT_HTTPGET")
            return
        case .post:
            try check(sheetsync_curl_setopt_long(handle, CURLOPT_POST, 1), "CURLOPT_POST")
        default:
            try check(sheetsync_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue), "CURLOPT_CUSTOMREQUEST")
        }
        guard sendsBody else { return }
        try check(
            sheetsync_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
            "CURLOPT_POSTFIELDSIZE_LARGE")
        try check(sheetsync_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, body), "CURLOPT_POSTFIELDS")
    }

    private func configureHeaders(_ handle: UnsafeMutableRawPointer, headerList: inout UnsafeMutablePointer<curl_slist>?) throws {
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        // An empty value removes a header libcurl would add on its own: no 100-continue round trip,
        // and no form content type on a PUT or PATCH that names none.
        if !request.headers.contains("Expect") { lines.append("Expect:") }
        if !request.headers.contains("Content-Type"), request.method != .get { lines.append("Content-Type:") }
        for line in lines {
            guard let appended = sheetsync_curl_slist_append(headerList, line) else {
                throw TransportError(kind: .other, request: request, detail: "curl_slist_append failed")
            }
            headerList = appended
        }
        try check(sheetsync_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
    }

    private func configureCallbacks(_ handle: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) throws {
        try check(sheetsync_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), "CURLOPT_WRITEFUNCTION")
        try check(sheetsync_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(sheetsync_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader), "CURLOPT_HEADERFUNCTION")
        try check(sheetsync_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        try check(sheetsync_curl_setopt_xferinfo_function(handle, curlProgress), "CURLOPT_XFERINFOFUNCTION")
        try check(sheetsync_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "CURLOPT_XFERINFODATA")
        try check(sheetsync_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "CURLOPT_NOPROGRESS")
        if logger.logLevel <= .trace {
            try check(sheetsync_curl_setopt_debug_function(handle, curlDebug), "CURLOPT_DEBUGFUNCTION")
            try check(sheetsync_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, context), "CURLOPT_DEBUGDATA")
            try check(sheetsync_curl_setopt_long(handle, CURLOPT_VERBOSE, 1), "CURLOPT_VERBOSE")
        }
    }

    /// Records one raw header line; a new status line (after `100 Continue`, say) starts afresh.
    func receiveHeaderLine(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            responseHeaders = HTTPHeaders()
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        responseHeaders.add(name, value)
    }
}
