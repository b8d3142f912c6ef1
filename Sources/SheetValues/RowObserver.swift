/// Sees every data row as a reader reads it, each cell as its decoded bytes: the work a caller would
/// otherwise do by visiting every row's bytes again once the read is done (`RowSource.visitCells`),
/// such as the sync's row hashes and keys. The reader hands it over with the table
/// (`Table.takeObservation`).
///
/// A reader may read a big file in parts side by side (`RowParts`): each part is then seen by an
/// observer of its own (`fresh()`), and the parts' observers are joined in row order (`append(_:)`).
public protocol RowObserver: Sendable {
    /// The next data row: its cells in column order, each as its decoded UTF-8 bytes (an empty cell as
    /// none), valid only during the call.
    mutating func row(_ cells: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>)
    /// An observer like this one that has seen no rows.
    func fresh() -> Self
    /// Takes the rows `later` saw, which come after the ones this one saw.
    mutating func append(_ later: Self)
}
