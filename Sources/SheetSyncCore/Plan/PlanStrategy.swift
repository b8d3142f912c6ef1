/// How the planner makes each tab's plan. The ways give the same store, workbook and report wherever
/// they apply (tests compare each with `reconcileEveryKey` on ledgers of every shape: `OnePathTests`);
/// the faster ones apply only where the store has nothing of a tab. Each row is read by the one set of
/// rules: a row the fast way cannot take as read goes the ordinary way, not its whole tab.
public enum PlanStrategy: Sendable, Hashable {
    /// Every key of every tab through the three-way reconcile, the plan's base built key by key: the
    /// general way, which the others must equal.
    case reconcileEveryKey
    /// Each tab planned whole; a tab the store has nothing of takes the workbook's rows as the plan's
    /// result and base at once (one dictionary, no key looked up twice).
    case planWhole
    /// A check: the plain rows of Transactions and Receipts (`PlainRows`) counted on their cells' bytes
    /// (`WorkbookCheck`), building no record; their other rows and the other tabs planned whole.
    case count
    /// A pull into a store that has none of Transactions or Receipts: their plain rows loaded as read
    /// (`PlainLoad`), none planned; their other rows and the other tabs planned whole.
    case loadPlain

    /// The fastest way for `purpose`: the one place the choice is made.
    public static func fastest(for purpose: PlanPurpose) -> PlanStrategy {
        switch purpose {
        case .checking: .count
        case .sync(.pull): .loadPlain
        case .sync, .importing: .planWhole
        }
    }

    /// Whether a tab the store has nothing of takes the workbook's rows as result and base at once.
    var sharesBase: Bool { self != .reconcileEveryKey }
}
