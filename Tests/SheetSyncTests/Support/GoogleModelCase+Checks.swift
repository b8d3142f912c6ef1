import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import SheetsEmulator

/// After every round: store = sheet = base (frozen rows aside), a second sync writes nothing, and no edit
/// of the round was lost (the oracle of the CSV model, `ModelCase.checkOracle`).
extension GoogleModelCase {
    func rejectedKeys() throws -> Set<String> { Set(try bed.store().rejectedRows().map(\.id).filter { !$0.isEmpty }) }

    func checkConverged(round: Int) async throws {
        let local = try bed.storeRecords(.transactions)
        let sheet = try bed.sheetRecords(.transactions, now: clock.now())
        let frozenNow = try rejectedKeys()
        for (key, r) in sheet where !frozenNow.contains(key) {
            guard local[key] == r else { throw fail("round \(round): \(key) differs: store \(String(describing: local[key])) sheet \(r)") }
        }
        for key in local.keys where sheet[key] == nil && !frozenNow.contains(key) {
            throw fail("round \(round): \(key) is in the store but not in the sheet")
        }
        let id = try bed.spreadsheetId()
        let version = bed.emulator.version(of: id)
        let storeBefore = try bed.store().records(in: .transactions)
        bed.emulator.resetCounters()
        let quiet = try await sync()
        let storeAfter = try bed.store().records(in: .transactions)
        if quiet.hasChanges || bed.emulator.version(of: id) != version
            || bed.emulator.counters.requests("sheets.spreadsheets.batchUpdate") > 0
            || storeAfter != storeBefore
        {
            throw fail("round \(round): a second sync was not a no-op: \(quiet.changes) \(quiet.tabs)")
        }
    }

    func checkOracle(round: Int, log: ModelCase.RoundLog) throws {
        let local = try bed.storeRecords(.transactions)
        let sheet = try bed.sheetRecords(.transactions, now: clock.now())
        let tainted = frozen.union(log.frozen).union(log.unfrozen).union(log.duplicated.keys)
        func expectNote(_ key: String, _ note: String, _ what: String) throws {
            guard local[key]?[.note] == note, sheet[key]?[.note] == note else {
                throw fail(
                    "round \(round): lost update (\(what)) on \(key): want note '\(note)', store '\(local[key]?[.note] ?? "-")', sheet '\(sheet[key]?[.note] ?? "-")'"
                )
            }
        }
        for (key, note) in log.localNote where !tainted.contains(key) {
            if let remote = log.remoteNote[key] {
                // The hand edit is stamped when sync first sees it, after the local edit: it wins, the local
                // value goes to the conflict log.
                try expectNote(key, remote, "same field on both sides")
                guard try bed.store().conflicts(limit: 1000).contains(where: { $0.key == key && $0.losingValue == note }) else {
                    throw fail("round \(round): losing value '\(note)' of \(key) is not in the conflict log")
                }
            } else {
                try expectNote(key, note, "local edit")
            }
        }
        for (key, note) in log.remoteNote where !tainted.contains(key) && log.localNote[key] == nil {
            try expectNote(key, note, log.localDeleted.contains(key) ? "remote edit beats local delete" : "remote edit")
        }
        for (key, amount) in log.remoteAmount where !tainted.contains(key) {
            guard local[key]?[.amount] == amount, sheet[key]?[.amount] == amount else {
                throw fail("round \(round): remote amount edit lost on \(key)")
            }
        }
        for key in log.localDeleted where !tainted.contains(key) && log.remoteNote[key] == nil && log.remoteAmount[key] == nil {
            if local[key] != nil || sheet[key] != nil { throw fail("round \(round): \(key) deleted locally came back") }
        }
        for key in log.remoteDeleted where !tainted.contains(key) {
            if let note = log.localNote[key] {
                try expectNote(key, note, "local edit beats remote delete")
            } else if local[key] != nil || sheet[key] != nil {
                throw fail("round \(round): \(key) deleted in the sheet came back")
            }
        }
        for (key, note) in log.localAdded { try expectNote(key, note, "local add") }
        for note in log.remoteInserted {
            let matches = local.values.filter { $0[.note] == note }
            guard matches.count == 1, let key = matches.first?[.transactionId], sheet[key]?[.note] == note else {
                throw fail("round \(round): hand-added row '\(note)' is not in both store and sheet under one id")
            }
        }
        for (key, note) in log.duplicated where !frozen.contains(key) {
            let copies = local.values.filter { $0[.note] == note && $0[.date] == local[key]?[.date] }
            guard copies.count >= 2 else { throw fail("round \(round): a copy-pasted row of \(key) was lost") }
        }
        for key in log.frozen {
            guard try rejectedKeys().contains(key) else {
                throw fail("round \(round): row \(key) with an unknown category was not rejected")
            }
            guard let row = try bed.rowIndex(of: key, in: .transactions),
                try bed.values(.transactions)[row][try bed.column("category", in: .transactions)] == .string("Nope")
            else {
                throw fail("round \(round): rejected row \(key) was overwritten in the sheet")
            }
        }
    }
}
