/// A misuse of the emulator's Swift API (an unknown spreadsheet or tab, a bad cell reference)
/// or a failure to start, with a message naming the value at fault.
public struct EmulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
