import Synchronization

/// A value behind a lock, so the emulator can be driven from tests while it serves requests.
final class Protected<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    func withLock<Result: Sendable, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try value.withLock { (current: inout sending Value) throws(Failure) -> Result in try body(&current) }
    }

    func read<Result: Sendable>(_ body: (Value) -> Result) -> Result {
        value.withLock { body($0) }
    }
}
