import ArgumentParser
import SheetSync
import SheetSyncCore

/// The values an option or argument with a fixed set takes. argument-parser lists them in `--help`,
/// in the completion scripts and in the error for any other value; each is read ignoring case.
public protocol ArgumentValue: CaseIterable, ExpressibleByArgument, RawRepresentable where RawValue == String {}

extension ArgumentValue {
    public init?(argument: String) {
        guard let value = Self(rawValue: argument.lowercased()) else { return nil }
        self = value
    }

    /// Help text whose value name lists the values (`<expense|income>`), so the man page, which shows
    /// no value list of its own, names them too.
    static func help(_ text: String) -> ArgumentHelp {
        ArgumentHelp(text, valueName: allValueStrings.joined(separator: "|"))
    }
}

/// A transaction's or rule's type: `add <type>`, `rule add --type`.
enum TransactionKind: String, ArgumentValue {
    case expense, income
}

/// A category's type: `category add --type`.
enum CategoryKind: String, ArgumentValue {
    case expense, income, both
}

/// `export --format`.
extension ExportFormat: ExpressibleByArgument, ArgumentValue {}

/// `report --by`.
extension ReportGrouping: ExpressibleByArgument, ArgumentValue {}
