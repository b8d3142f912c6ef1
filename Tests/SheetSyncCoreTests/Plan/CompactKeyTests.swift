import Foundation
import SheetSyncCore
import SheetValues
import Testing

/// Keys held compactly (`RowKey`) never make two different keys one: an "unchanged"
/// decision on a wrong row would skip a real edit.
@Suite struct CompactKeyTests {
    typealias P = SyncPlannerTests
    typealias S = ChangeScopeTests

    static let lower = "0e9b2c1a-3f4d-4e5f-8a6b-7c8d9e0f1a2b"

    @Test func onlyACanonicalUUIDIsHeldAsBitsAndItsTextComesBack() {
        #expect(RowKey(Self.lower) == .uuid(0x0e9b_2c1a_3f4d_4e5f, 0x8a6b_7c8d_9e0f_1a2b))
        #expect(RowKey(Self.lower).text == Self.lower)
        #expect(RowKey("00000000-0000-0000-0000-000000000000").text == "00000000-0000-0000-0000-000000000000")
        #expect(RowKey("ffffffff-ffff-ffff-ffff-ffffffffffff") == .uuid(.max, .max))
        let others = [
            Self.lower.uppercased(), "{\(Self.lower)}", Self.lower.replacingOccurrences(of: "-", with: ""),
            " \(Self.lower)", "\(Self.lower) ", String(Self.lower.dropLast()), Self.lower + "0",
            "0e9b2c1a-3f4d-4e5f-8a6b-7c8d9e0f1a2g", "0e9b2c1a3-f4d-4e5f-8a6b-7c8d9e0f1a2b", "0e9b2c1a-3f4d-4e5f-8a6b_7c8d9e0f1a2b",
            // Full-width digits are hex digits to `Character.isHexDigit`, yet not this text.
            "０e9b2c1a-3f4d-4e5f-8a6b-7c8d9e0f1a2b", "Food", "", "Ä",
        ]
        for text in others {
            #expect(RowKey(text) == .text(text), "\(text)")
            #expect(RowKey(text).text == text)
            #expect(RowKey(text) != RowKey(Self.lower), "\(text)")
        }
    }

    /// Every byte value at every one of a UUID's 36 places: held as bits exactly when the text is
    /// still a canonical UUID (lowercase hex digits, dashes at 8, 13, 18 and 23), and then as the
    /// value a plain reading of the digits gives.
    @Test func everyByteAtEveryPlaceIsReadAsAPlainParserWould() {
        func reference(_ bytes: [UInt8]) -> (UInt64, UInt64)? {
            guard bytes.count == 36 else { return nil }
            var digits: [UInt64] = []
            for (offset, byte) in bytes.enumerated() {
                if [8, 13, 18, 23].contains(offset) {
                    guard byte == UInt8(ascii: "-") else { return nil }
                } else if let value = "0123456789abcdef".utf8.firstIndex(of: byte) {
                    digits.append(UInt64("0123456789abcdef".utf8.distance(from: "0123456789abcdef".utf8.startIndex, to: value)))
                } else {
                    return nil
                }
            }
            return (digits[..<16].reduce(0) { $0 << 4 | $1 }, digits[16...].reduce(0) { $0 << 4 | $1 })
        }
        let original = Array(Self.lower.utf8)
        var wrong: [String] = []
        for place in 0..<36 {
            for value in 0...255 {
                var bytes = original
                bytes[place] = UInt8(value)
                let expected = reference(bytes)
                let key = bytes.withUnsafeBufferPointer { RowKey(utf8: $0) }
                let ok: Bool
                switch (key, expected) {
                case (.uuid(let high, let low), let bits?): ok = bits == (high, low)
                case (.text, nil): ok = true
                default: ok = false
                }
                if !ok { wrong.append("place \(place) byte \(value)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        // Shorter and longer texts are never bits.
        for length in [0, 1, 35, 37, 72] {
            let bytes = Array(repeating: UInt8(ascii: "a"), count: length)
            #expect(bytes.withUnsafeBufferPointer { RowKey(utf8: $0) } == .text(String(repeating: "a", count: length)))
        }
    }

    @Test func keysAreEqualExactlyWhenTheirTextsAre() {
        var texts = (0..<500).map { _ in UUID().uuidString.lowercased() }
        texts += texts.prefix(50).map { $0.uppercased() }
        texts += ["Food", "food", "Café", "Cafe\u{301}", Self.lower, Self.lower.uppercased()]
        for a in texts {
            let key = RowKey(a)
            #expect(key.text == a, "\(a)")
            var bytes = Array(a.utf8)
            let fromBytes = bytes.withUnsafeMutableBufferPointer { RowKey(utf8: UnsafeBufferPointer($0)) }
            #expect(fromBytes == key)
        }
        // Every pair: equal keys exactly for equal texts (`String` equality: "Café" is "Cafe\u{301}").
        let keys = texts.map(RowKey.init)
        var wrong: [String] = []
        for i in texts.indices {
            for j in texts.indices where (keys[i] == keys[j]) != (texts[i] == texts[j]) { wrong.append("\(texts[i]) / \(texts[j])") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(Set(texts.map(RowKey.init)).count == Set(texts).count)
    }

    /// A workbook whose Categories hold a name that reads as a canonical UUID beside its upper-case
    /// and braced spellings, with the hashes a sync recorded for each under its own name.
    static func categoryNames() -> (workbook: [Tab: Table], ledger: LedgerState, index: ChangeIndex, hashes: [Int64]) {
        var (workbook, ledger) = P.agreed(5)
        let names = ["Food", lower, lower.uppercased(), "{\(lower)}"]
        let categories = names.map { RC.category($0) }
        workbook[.categories] = P.table(.categories, categories)
        var index = S.index(after: workbook, ledger)
        let hashes = ChangeScope.find(workbook: workbook, index: index).hashes[.categories] ?? []
        var recorded: [String: Int64] = [:]
        for (row, name) in names.enumerated() { recorded[name] = hashes[row] }
        index.baseHashes[.categories] = BaseHashes(recorded)
        ledger.rows[.categories] = Dictionary(uniqueKeysWithValues: zip(names, categories))
        ledger.base[.categories] = ledger.rows[.categories]
        return (workbook, ledger, index, hashes)
    }

    @Test func aCategoryNamedLikeAUUIDStaysApartFromItsOtherSpellings() throws {
        let (workbook, _, index, hashes) = Self.categoryNames()
        let scope = ChangeScope.find(workbook: workbook, index: index)
        #expect(scope.keys[.categories] == ["Food", Self.lower, Self.lower.uppercased(), "{\(Self.lower)}"].map { RowKey($0) })
        #expect(scope.narrowed[.transactions]?.unchanged.count == 5, "four names, four keys: Categories are steady")

        // The base knows the upper-case name with the hash of the lower-case one's row: a key that
        // took one for the other would call that row unchanged. The base key is not in the sheet.
        var wrong = index
        wrong.baseHashes[.categories] = BaseHashes(["Food": hashes[0], Self.lower.uppercased(): hashes[1]])
        var sheet = workbook
        sheet[.categories]?.rows = Array(try #require(workbook[.categories]).rows.prefix(2))
        #expect(ChangeScope.find(workbook: sheet, index: wrong).narrowed.isEmpty)
        // The same with the braced spelling.
        wrong.baseHashes[.categories] = BaseHashes(["Food": hashes[0], "{\(Self.lower)}": hashes[1]])
        #expect(ChangeScope.find(workbook: sheet, index: wrong).narrowed.isEmpty)
        // And the way round: the lower-case key recorded with the upper-case row's hash.
        wrong.baseHashes[.categories] = BaseHashes(["Food": hashes[0], Self.lower: hashes[2]])
        sheet[.categories]?.rows = [try #require(workbook[.categories]).rows[0], try #require(workbook[.categories]).rows[2]]
        #expect(ChangeScope.find(workbook: sheet, index: wrong).narrowed.isEmpty)
    }

    /// `P.agreed`, with ids that hold hex letters (`P.ids` are digits only: upper case would not change them).
    static func agreed(_ ids: [String]) -> (workbook: [Tab: Table], ledger: LedgerState) {
        let transactions = ids.map { RC.transaction($0) }
        let rows: [Tab: [String: LedgerRow]] = [
            .categories: ["Food": RC.category("Food")],
            .transactions: Dictionary(uniqueKeysWithValues: zip(ids, transactions)),
        ]
        var workbook: [Tab: Table] = [:]
        for tab in Tab.allCases { workbook[tab] = P.table(tab, tab == .transactions ? transactions : Array((rows[tab] ?? [:]).values)) }
        return (workbook, LedgerState(rows: rows, base: rows))
    }

    @Test func anUpperCaseOrBracedIdBesideCanonicalOnesIsTheSameKeyAndIsRead() throws {
        let ids = (0..<20).map { String(format: "%08x-abcd-4ef0-8a1b-%012x", 0xdead_0000 + $0, 0xc0ffee + $0) }
        var (workbook, ledger) = Self.agreed(ids)
        let index = S.index(after: workbook, ledger)
        var table = try #require(workbook[.transactions])
        #expect(table.rows[3][0].rawText == ids[3] && table.rows[4][0].rawText == ids[4])
        table.rows[3][0] = .text(ids[3].uppercased())
        table.rows[4][0] = .text("{\(ids[4])}")
        workbook[.transactions] = table

        let scope = ChangeScope.find(workbook: workbook, index: index)
        let narrowed = try #require(scope.narrowed[.transactions], "both ids read as their base keys")
        #expect(narrowed.keysToLoad == [ids[3], ids[4]])
        #expect(narrowed.unchanged.count == 18 && !narrowed.unchanged.rows[3] && !narrowed.unchanged.rows[4])
        #expect(scope.keys[.transactions]?[3] == RowKey(ids[3]) && scope.keys[.transactions]?[4] == RowKey(ids[4]))
        let fast = try #require(P.tab(P.plan(workbook, S.narrowed(ledger, scope), scope: scope), .transactions))
        let full = try #require(P.tab(P.plan(workbook, ledger), .transactions))
        #expect(fast.localUpserts == full.localUpserts && fast.remoteUpdates == full.remoteUpdates)
        #expect(fast.remoteAppends == full.remoteAppends && fast.rejections == full.rejections)
        _ = ledger
    }

    @Test func aKeyRepeatedTwiceOrThriceHasNoRowLeftOut() throws {
        var (workbook, ledger) = P.agreed(6)
        let index = S.index(after: workbook, ledger)
        var table = try #require(workbook[.transactions])
        // A base key three times: none of its rows is its row, so the tab is read whole.
        table.rows += [table.rows[2], table.rows[2]]
        workbook[.transactions] = table
        #expect(ChangeScope.find(workbook: workbook, index: index).narrowed[.transactions] == nil)

        // A new key two and three times: the tab narrows, but no copy is unchanged or keyed.
        for copies in [2, 3] {
            var fresh = try #require(P.agreed(6).workbook[.transactions])
            let added = P.table(.transactions, [RC.transaction(P.ids[25])]).rows[0]
            fresh.rows += Array(repeating: added, count: copies)
            workbook[.transactions] = fresh
            let scope = ChangeScope.find(workbook: workbook, index: index)
            let narrowed = try #require(scope.narrowed[.transactions])
            #expect(narrowed.unchanged.count == 6 && !narrowed.unchanged.contains(P.ids[25]))
            #expect(narrowed.unchanged.contains(P.ids[5]))
            #expect(scope.keys[.transactions]?.suffix(copies).allSatisfy { $0 == nil } == true)
            #expect(scope.keys[.transactions]?.prefix(6).allSatisfy { $0 != nil } == true)
        }
        _ = ledger
    }

    @Test func aNarrowedSyncFindsAnEditInAnyCellIncludingAUserColumn() throws {
        var (workbook, ledger) = P.agreed(20)
        var table = try #require(workbook[.transactions])
        table.header.append("myNote")
        for i in table.rows.indices { table.rows[i].append(.text("mine \(i)")) }
        workbook[.transactions] = table
        let index = S.index(after: workbook, ledger)
        #expect(ChangeScope.find(workbook: workbook, index: index).narrowed[.transactions]?.unchanged.count == 20)
        let key = table.rows[7][0].rawText
        for column in table.header.indices {
            var edited = table
            edited.rows[7][column] = .text(table.rows[7][column].rawText + "1")
            var sheet = workbook
            sheet[.transactions] = edited
            let scope = ChangeScope.find(workbook: sheet, index: index)
            guard let narrowed = scope.narrowed[.transactions] else {
                // Only an edited key can make the base key look deleted: then the tab is read whole.
                #expect(column == 0, "\(table.header[column])")
                continue
            }
            #expect(!narrowed.unchanged.rows[7] && narrowed.unchanged.count == 19, "\(table.header[column])")
            #expect(narrowed.keysToLoad == [key], "\(table.header[column])")
        }
        _ = ledger
    }
}
