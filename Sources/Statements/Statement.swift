import SheetSyncCore

/// The kinds of bank statement sheetsync reads.
public enum StatementFormat: String, Sendable, CaseIterable {
    /// OFX 1.x (SGML, leaf tags not closed) or OFX 2.x (XML), and Quicken's QFX.
    case ofx = "OFX"
    case qif = "QIF"
    /// ISO 20022 `camt.053` bank-to-customer statement.
    case camt053 = "CAMT.053"
    /// A bank's CSV or TSV export.
    case csv = "CSV"
}

/// One booked entry of a statement, as the statement prints it.
public struct StatementEntry: Hashable, Sendable {
    /// Money in or out of the account.
    public enum Direction: String, Hashable, Sendable {
        case incoming = "in"
        case outgoing = "out"
    }

    /// The booking/posted date as printed (an OFX `DTPOSTED`'s calendar date in its own offset).
    public var date: LocalDate
    /// The exact amount, never negative: `direction` says which way it went.
    public var amount: Amount
    public var direction: Direction
    /// The counterparty: OFX `NAME`, QIF `P`, CAMT creditor/debtor name, a CSV payee column.
    public var payee: String
    /// The description: OFX `MEMO`, QIF `M`, CAMT remittance information, a CSV description column.
    public var memo: String
    /// The bank's own id of the entry where the format has one: OFX `FITID`, CAMT `AcctSvcrRef`
    /// (else `NtryRef`), a CSV transaction-id column.
    public var reference: String?
    /// The account the statement is of, where it says (OFX `ACCTID`, CAMT IBAN); empty otherwise.
    public var account: String
    /// The 1-based line of the file where the entry starts.
    public var line: Int
    /// The category the file itself gives (a budget sheet's `Category` column); empty otherwise.
    public var category = ""

    public init(
        date: LocalDate, amount: Amount, direction: Direction, payee: String, memo: String, reference: String? = nil,
        account: String = "", line: Int
    ) {
        self.date = date
        self.amount = amount
        self.direction = direction
        self.payee = payee
        self.memo = memo
        self.reference = reference
        self.account = account
        self.line = line
    }
}

/// A statement read from a file: its entries and the entries it refused, each with its line.
public struct Statement: Sendable {
    public var format: StatementFormat
    public var entries: [StatementEntry]
    /// Entries that could not be read (a date or amount that is none); the rest are still read.
    public var refused: [StatementError]
    /// Entries the statement marks as not booked (CAMT `PDNG`/`INFO`), left out.
    public var pending: Int
    /// What tells this file's bank from another's where its entries name no account: a CSV export's
    /// layout (the header names of the columns read, by role); empty for the other formats.
    public var layout = ""

    public init(format: StatementFormat, entries: [StatementEntry] = [], refused: [StatementError] = [], pending: Int = 0) {
        self.format = format
        self.entries = entries
        self.refused = refused
        self.pending = pending
    }
}
