import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOFoundationEssentialsCompat

/// The running server: its port and the task that runs it.
struct ServerHandle: Sendable {
    var port: Int
    var task: Task<Void, any Error>
    var executor: DedicatedThreadExecutor
}

/// Carries the connection so a fault can drop or reset it.
struct EmulatorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    var maxUploadSize: Int { 512 * 1024 * 1024 }
}

/// Thrown after a fault broke the connection, so Hummingbird writes nothing more.
struct ConnectionBrokenOnPurpose: Error {}

/// Adapts Hummingbird requests to the emulator's own request type and back.
struct EmulatorResponder: HTTPResponder {
    typealias Context = EmulatorContext
    let emulator: SheetsEmulator

    func respond(to request: Request, context: EmulatorContext) async throws -> Response {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName.lowercased()
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let emulated = EmulatorRequest(
            method: request.method.rawValue, rawPath: request.uri.path, rawQuery: request.uri.query, headers: headers,
            body: Data(buffer: body))
        switch await emulator.process(emulated) {
        case .respond(let response):
            return Self.response(response, body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
        case .drop(let reset):
            if reset {
                // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
                if let provider = context.channel as? any SocketOptionProvider {
                    // A fault the test asked for; a connection that closes gently instead still breaks.
                    try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                }
            }
            // Closing an already closing connection fails harmlessly.
            try? await context.channel.close().get()
            throw ConnectionBrokenOnPurpose()
        case .truncate(let response, let keep):
            let channel = context.channel
            let partial = ByteBuffer(bytes: response.body.prefix(keep))
            let body = ResponseBody(contentLength: response.body.count) { writer in
                try await writer.write(partial)
                try? await channel.close().get()
                throw ConnectionBrokenOnPurpose()
            }
            return Self.response(response, body: body)
        }
    }

    private static func response(_ response: EmulatorResponse, body: ResponseBody) -> Response {
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return Response(status: HTTPResponse.Status(code: response.status), headers: fields, body: body)
    }
}

extension SheetsEmulator {
    /// Starts serving on `host:port` (0 picks a free port) and returns the bound port.
    @discardableResult
    public func start(port: Int = 0, host: String = "127.0.0.1") async throws -> Int {
        if case .failure(let error) = DiscoveryCatalog.bundled { throw error }
        if let running = self.port { throw EmulatorError("the emulator is already running on port \(running)") }
        var logger = Logger(label: "sheetsync-emulator")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: EmulatorResponder(emulator: self),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let executor = DedicatedThreadExecutor(name: "sheets-emulator-\(port)")
        let task = Task(executorPreference: executor) {
            defer { continuation.finish() }
            try await app.run()
        }
        var bound: Int?
        for await value in ports {
            bound = value
            break
        }
        guard let bound, bound > 0 else {
            task.cancel()
            let reason = await task.result
            executor.shutdown()
            let underlying: (any Error)? = if case .failure(let error) = reason { error } else { nil }
            throw EmulatorError("cannot listen on \(host):\(port): \(reason)", underlying: underlying)
        }
        let displayHost = host.contains(":") ? "[\(host)]" : host
        world.withLock { $0.baseURL = "http://\(displayHost):\(bound)" }
        server.withLock { $0 = ServerHandle(port: bound, task: task, executor: executor) }
        return bound
    }

    /// Stops serving and waits until the port is closed; state stays for inspection.
    public func stop() async {
        let handle = server.withLock { current -> ServerHandle? in
            defer { current = nil }
            return current
        }
        guard let handle else { return }
        handle.task.cancel()
        _ = await handle.task.result
        handle.executor.shutdown()
    }
}
