import SheetSyncCore
import SheetValues

extension LocalDate {
    /// A date option (`--date`, `--from`, `--until`) read as the ledger's sheet reads a date cell, refused
    /// with the sheet's message naming the option.
    static func option(_ text: String, named option: String, _ forms: LocalForms) throws -> LocalDate {
        switch FieldParser.canonical(.text(text), FieldSpec(.date, .date), forms) {
        case .success(let iso):
            if let date = LocalDate(iso: iso) { return date }
            throw SheetSyncError(.usage, "\(option) is empty (use YYYY-MM-DD)")
        case .failure(let problem):
            throw SheetSyncError(.usage, "\(option): \(problem.message) (\(problem.hint))")
        }
    }
}
