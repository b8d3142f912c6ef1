/// Why one cell could not be read, with a hint the user can act on.
public struct FieldProblem: Error, Hashable, Sendable {
    public var field: String
    public var value: String
    public var message: String
    public var hint: String

    public init(field: String, value: String, message: String, hint: String = "") {
        self.field = field
        self.value = value
        self.message = message
        self.hint = hint
    }
}
