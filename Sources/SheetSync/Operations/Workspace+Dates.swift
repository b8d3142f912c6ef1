import Foundation
import SheetSyncCore
import SheetSyncStore

/// The ledger's calendar as its store records it: the dataset's time zone, today there, and how dates
/// and amounts typed as text are read. Every command that reads a typed date or needs today asks here.
extension Workspace {
    /// The dataset's time zone (its Settings row), else the configured one.
    func timeZone(store: LedgerStore) throws -> TimeZone {
        let zone = try store.records(in: .settings).first?[.timezone] ?? config.timezone
        return TimeZone(identifier: zone) ?? TimeZone(identifier: config.timezone) ?? .gmt
    }

    /// Today in the dataset's time zone.
    func today(store: LedgerStore) throws -> LocalDate {
        let zone = try timeZone(store: store)
        let now = clock.now()
        let offset = Int64(zone.secondsFromGMT(for: now.date)) * 1000
        return now.adding(milliseconds: offset).utcDate
    }

    /// How the store reads dates and amounts typed as text (`SyncEngine.forms`).
    func localForms(_ store: LedgerStore) throws -> LocalForms {
        SyncEngine.forms(
            [SyncEngine.stateDateOrder, SyncEngine.stateDecimalSeparator].reduce(into: [:]) { state, key in
                state[key] = try? store.state(key)
            })
    }
}
