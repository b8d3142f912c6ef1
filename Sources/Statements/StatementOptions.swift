/// How to read a bank's CSV export where detection is not enough (`import.csv` or a bank's
/// profile in the config); the other formats say all of this themselves, but a QIF file's dates
/// may need `dateFormat` too.
public struct StatementOptions: Hashable, Sendable {
    /// Which sign an amount column gives money out.
    public enum ExpenseSign: String, Hashable, Sendable, CaseIterable {
        /// A bank account's export: `-12.50` is money out.
        case negative
        /// Many credit-card exports: `12.50` is a purchase, `-12.50` a refund or payment.
        case positive
    }

    /// Header names of the columns to use, overriding detection (matched ignoring case).
    public struct Columns: Hashable, Sendable {
        public var date: String?
        public var amount: String?
        /// The description column(s) (`import.csv.columns.note`).
        public var note: String?
        public var payee: String?
        public var debit: String?
        public var credit: String?
        public var reference: String?

        public init(
            date: String? = nil, amount: String? = nil, note: String? = nil, payee: String? = nil, debit: String? = nil,
            credit: String? = nil, reference: String? = nil
        ) {
            self.date = date
            self.amount = amount
            self.note = note
            self.payee = payee
            self.debit = debit
            self.credit = credit
            self.reference = reference
        }
    }

    public var expenseSign: ExpenseSign
    public var dateFormat: DateFormat?
    public var columns: Columns

    public init(expenseSign: ExpenseSign = .negative, dateFormat: DateFormat? = nil, columns: Columns = Columns()) {
        self.expenseSign = expenseSign
        self.dateFormat = dateFormat
        self.columns = columns
    }
}
