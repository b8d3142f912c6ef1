/// How the planner makes each tab's plan. The ways give the same store, workbook and report wherever
/// they apply (tests compare each with `reconcileEveryKey`); the faster ones apply only where the
/// store has nothing of a tab, and a tab where one does not apply is planned whole.
public enum PlanStrategy: Sendable, Hashable {
    /// Every key of every tab through the three-way reconcile, the plan's base built key by key: the
    /// general way, which the others must equal.
    case reconcileEveryKey
    /// Each tab planned whole; a tab the store has nothing of takes the workbook's rows as the plan's
    /// result and base at once (one dictionary, no key looked up twice).
    case planWhole
    /// A check: Transactions and Receipts counted on their cells' bytes when their rows are plain
    /// (`WorkbookCheck`), building no record; the other tabs planned whole.
    case count
    /// A pull into a store that has none of Transactions or Receipts: their rows loaded as read when
    /// plain (`PlainLoad`), none planned; the other tabs planned whole.
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
