import SheetSyncCore
import Statements

/// The bank-statement readers, one target per format (the format forced, so every input reaches
/// its parser): no crash, and what is read holds together.
enum StatementTargets {
    static func run(_ bytes: UnsafeRawBufferPointer, format: StatementFormat) throws(PropertyViolation) {
        let input = Array(bytes)
        // The first byte picks the CSV options, so the configured paths are reached too.
        let options = StatementOptions(
            expenseSign: input.first.map { $0 & 1 == 0 } == true ? .negative : .positive,
            dateFormat: input.first.map { $0 & 2 == 0 } == true ? nil : DateFormat(pattern: "dd/MM/yyyy"))
        let statement: Statement
        do { statement = try StatementReader.read(input, file: "fuzz", format: format, options: options) } catch { return }
        let lines = input.count { $0 == 0x0A || $0 == 0x0D } + 1
        for entry in statement.entries {
            guard (1...lines).contains(entry.line) else {
                throw PropertyViolation("\(format.rawValue): entry line \(entry.line) outside the file's \(lines) lines")
            }
            guard case .success(let again) = Amount.parse(entry.amount.description), again == entry.amount else {
                throw PropertyViolation("\(format.rawValue): amount \(entry.amount) does not read back as itself")
            }
        }
        // Reading is a function of the bytes: the same input reads the same again.
        guard let second = try? StatementReader.read(input, file: "fuzz", format: format, options: options),
            second.entries == statement.entries, second.refused == statement.refused
        else { throw PropertyViolation("\(format.rawValue): a second read of the same bytes differs") }
    }
}
