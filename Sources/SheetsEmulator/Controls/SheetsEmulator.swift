import Foundation

/// An in-memory Google Sheets v4 / Drive v3 / OAuth2 token service on a local port, checked against
/// the discovery documents, with fault injection and "edit like a person" helpers for tests.
///
/// One base URL stands in for `https://sheets.googleapis.com`, `https://www.googleapis.com` and
/// `https://oauth2.googleapis.com`: `POST /token`, `/v4/spreadsheets…`, `/drive/v3/files…`,
/// `/upload/drive/v3/files…`. Test controls are methods here and, for other processes, `/_emulator/…`.
public final class SheetsEmulator: Sendable {
    let world: Protected<EmulatorWorld>
    let server = Protected<ServerHandle?>(nil)
    let stateFile: URL?

    /// - Parameters:
    ///   - stateFile: when given, state is loaded from it (if it exists) and saved after every change.
    ///   - now: freezes the emulator clock at this instant (advance it with `advanceClock(by:)`);
    ///     nil follows the system clock.
    public init(stateFile: URL? = nil, now: Date? = nil) throws {
        var initial = EmulatorWorld()
        initial.frozenClock = now
        if let stateFile, FileManager.default.fileExists(atPath: stateFile.path) {
            initial.persistent = try StateFile.load(from: stateFile)
        }
        self.world = Protected(initial)
        self.stateFile = stateFile
    }

    /// The bound port while running.
    public var port: Int? {
        server.read { $0?.port }
    }

    /// `http://127.0.0.1:PORT`, the one endpoint for Sheets, Drive and tokens.
    public var baseURL: String {
        world.read { $0.baseURL }
    }

    /// The token URI clients put in JWT `aud` and POST to.
    public var tokenURL: String { baseURL + "/token" }

    /// Writes the state file now (requests that change something save it by themselves).
    public func saveState() throws {
        guard let stateFile else { return }
        try StateFile.save(world.read { $0.persistent }, to: stateFile)
    }

    // MARK: WallClock

    /// The emulator's clock, which decides token expiry and Drive times.
    public var now: Date {
        world.read { $0.now }
    }

    /// Moves the emulator clock forward (tokens expire without waiting).
    public func advanceClock(by seconds: TimeInterval) {
        world.withLock { world in
            if let frozen = world.frozenClock {
                world.frozenClock = frozen.addingTimeInterval(seconds)
            } else {
                world.clockOffset += seconds
            }
        }
    }

    /// Access token lifetime in seconds (default 3600, Google's).
    public func setTokenLifetime(_ seconds: Int) {
        world.withLock { $0.tokenLifetime = seconds }
    }

    // MARK: Observation

    /// Counts since the last `resetCounters()`.
    public var counters: EmulatorCounters {
        world.read { $0.counters }
    }

    /// Requests since the last `resetCounters()`, oldest first (`/_emulator` controls excluded).
    public var requestLog: [EmulatorRequestRecord] {
        world.read { $0.log }
    }

    /// Every request that broke the discovery documents' contract since start (or `clearViolations()`).
    public var violations: [DiscoveryViolation] {
        world.read { $0.violations }
    }

    /// Starts request numbering, counters and the log afresh; armed faults stay armed.
    public func resetCounters() {
        world.withLock { world in
            world.counters = EmulatorCounters()
            world.log = []
        }
    }

    public func clearViolations() {
        world.withLock { $0.violations = [] }
    }

    /// Refuses (or allows) Drive storage to service accounts: `spreadsheets.create` answers 403
    /// PERMISSION_DENIED and creating a non-folder file 403 `storageQuotaExceeded`, as Google does.
    public func refuseServiceAccountStorage(_ refused: Bool = true) {
        world.withLock { $0.serviceAccountStorageRefused = refused }
    }

    // MARK: Faults

    /// Arms a fault for one request; it plays once.
    public func injectFault(_ fault: EmulatorFault, at trigger: FaultTrigger, phase: FaultPhase = .beforeEffect) {
        world.withLock { $0.faults.append(ArmedFault(fault: fault, trigger: trigger, phase: phase)) }
    }

    /// Arms a fault for the N-th request (1-based) after the last `resetCounters()`.
    public func injectFault(_ fault: EmulatorFault, atRequest number: Int, phase: FaultPhase = .beforeEffect) {
        injectFault(fault, at: .requestNumber(number), phase: phase)
    }

    /// Opens a gate: requests held on it (`EmulatorFault.hold`) go on, and later ones pass at once.
    public func open(gate: String) {
        world.withLock { _ = $0.openGates.insert(gate) }
    }

    /// Whether a request is waiting at the gate of this name (it was admitted and holds there).
    public func isHeld(at gate: String) -> Bool {
        world.read { world in
            !world.openGates.contains(gate) && world.log.contains { $0.fault == .hold(gate: gate) && $0.status == nil }
        }
    }

    /// Disarms every fault not yet played.
    public func clearFaults() {
        world.withLock { $0.faults = [] }
    }
}
