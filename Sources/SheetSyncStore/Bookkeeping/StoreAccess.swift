import GRDB

extension LedgerStore {
    /// A read whose SQLite trouble (busy, damaged, unreadable) comes out as a `StoreError` naming
    /// this store, as the store's own reads and writes do, instead of GRDB's bare error.
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        try naming("read") { try writer.read(body) }
    }

    /// A write in one transaction, its SQLite trouble (busy, full, read-only) named like `reading`'s.
    func writing<T>(_ body: (Database) throws -> T) throws -> T {
        try naming("write") { try writer.write(body) }
    }
}
