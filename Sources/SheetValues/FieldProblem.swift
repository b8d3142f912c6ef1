/// Why one cell could not be read, with a hint the user can act on.
public struct FieldProblem: Error, Hashable, Sendable {
    public var field: String
    public var value: String
    public var message: String
    public var hint: String
    /// What kind of problem it is (`invalid-date`, `unknown-category`, …: docs/issues.md).
    public var code: IssueCode

    public init(field: String, value: String, message: String, hint: String = "", code: IssueCode = .damagedRow) {
        self.field = field
        self.value = value
        self.message = message
        self.hint = hint
        self.code = code
    }
}
