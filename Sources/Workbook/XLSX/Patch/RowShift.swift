/// How a patch moves a worksheet's rows: deleted rows close up, appended rows follow the data.
///
/// Row numbers are sheet rows (the header is row 1), before (`old`) and after the patch.
public struct RowShift: Sendable, Equatable {
    /// Deleted sheet rows, ascending.
    public let deleted: [Int]
    /// The last row of the table as read (1 when it has only a header).
    public let lastDataRow: Int
    /// How many rows are appended after `lastDataRow`.
    public let appended: Int

    public init(deleted: [Int], lastDataRow: Int, appended: Int) {
        self.deleted = Array(Set(deleted)).sorted()
        self.lastDataRow = lastDataRow
        self.appended = appended
    }

    /// Whether no existing row moves (appends alone move nothing).
    public var movesRows: Bool { !deleted.isEmpty }

    /// How many deleted rows lie before `row`.
    private func deletedBefore(_ row: Int) -> Int {
        var low = 0
        var high = deleted.count
        while low < high {
            let mid = (low + high) / 2
            if deleted[mid] < row { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func isDeleted(_ row: Int) -> Bool {
        let index = deletedBefore(row)
        return index < deleted.count && deleted[index] == row
    }

    /// The new number of an old row; nil when the row is deleted.
    public func row(_ old: Int) -> Int? {
        isDeleted(old) ? nil : old - deletedBefore(old)
    }

    /// The new bounds of the rows `first...last`; nil when every one of them is deleted.
    ///
    /// With `grows`, a range ending on the table's last row takes the appended rows in, the way
    /// an autofilter, a table or a validation list grows when rows are added below it.
    public func range(_ first: Int, _ last: Int, grows: Bool) -> (first: Int, last: Int)? {
        guard first <= last else { return nil }
        var low = first
        while low <= last, isDeleted(low) { low += 1 }
        var high = last
        while high >= low, isDeleted(high) { high -= 1 }
        guard low <= high, let newLow = row(low), var newHigh = row(high) else {
            return grows && last == lastDataRow && appended > 0 ? appendedRange : nil
        }
        if grows, last == lastDataRow, first <= lastDataRow { newHigh += appended }
        return (newLow, newHigh)
    }

    /// The new rows of the appended records.
    private var appendedRange: (first: Int, last: Int) {
        let first = lastDataRow - deletedBefore(lastDataRow + 1) + 1
        return (first, first + appended - 1)
    }

    /// The new number of the `index`th appended row (0-based).
    public func appendedRow(_ index: Int) -> Int {
        lastDataRow - deletedBefore(lastDataRow + 1) + 1 + index
    }
}
