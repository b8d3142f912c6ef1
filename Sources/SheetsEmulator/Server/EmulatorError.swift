/// A misuse of the emulator's Swift API (an unknown spreadsheet or tab, a bad cell reference)
/// or a failure to start, load or save, with a message naming the value at fault.
public struct EmulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The file the failure is about (a state or credentials file), when there is one.
    public var path: String?
    /// The error underneath (from the file system, a decoder, the server), for callers that branch
    /// on it; the message already says what it means.
    public var underlying: (any Error)?

    public init(_ message: String, path: String? = nil, underlying: (any Error)? = nil) {
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    public var description: String { message }

    /// Equal when they say the same about the same file (errors underneath have no equality).
    public static func == (lhs: EmulatorError, rhs: EmulatorError) -> Bool {
        lhs.message == rhs.message && lhs.path == rhs.path
    }
}
