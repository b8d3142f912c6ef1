/// Row ranges of one column (or of every column), each tagged with the formula that reads it, to
/// find every formula that reads a given row.
///
/// A segment tree over the sheet's 2^20 rows: a range is stored at the O(log n) nodes that cover
/// it exactly, and a row's query walks from its leaf to the root. Every range stored on that path
/// contains the row, so a query takes the lists it visits away: each range is reported at most
/// once per node, which keeps a whole workbook's closure linear in its references (times log n)
/// instead of formulas × references.
struct RowIntervals {
    /// The number of leaves: Excel's row count, a power of two.
    static let leaves = CellReference.maximumRow
    private var nodes: [Int: [Int32]] = [:]

    var isEmpty: Bool { nodes.isEmpty }

    /// Stores `id` for the rows `first...last` (1-based, clamped to the grid).
    mutating func insert(_ id: Int32, rows first: Int, _ last: Int) {
        var low = max(first, 1) - 1 + Self.leaves
        var high = min(last, Self.leaves) + Self.leaves
        guard low < high else { return }
        while low < high {
            if low & 1 == 1 {
                nodes[low, default: []].append(id)
                low += 1
            }
            if high & 1 == 1 {
                high -= 1
                nodes[high, default: []].append(id)
            }
            low >>= 1
            high >>= 1
        }
    }

    /// Takes every id stored for a range that contains `row` (1-based) out of the tree.
    mutating func take(row: Int, _ found: (Int32) -> Void) {
        guard row >= 1, row <= Self.leaves else { return }
        var node = row - 1 + Self.leaves
        while node >= 1 {
            if let ids = nodes.removeValue(forKey: node) { ids.forEach(found) }
            node >>= 1
        }
    }
}
