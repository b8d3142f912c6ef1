import Foundation
import Testing

@testable import SheetSyncCore

/// The row index over a key array (`RowKeyIndex`): the grouped lookup answers exactly what one
/// lookup at a time answers, whatever the keys (bits or text, cleared, repeated, absent, colliding).
@Suite struct RowKeyIndexTests {
    /// `count` keys, every third a text key, some cleared after they went in, a few repeated.
    static func indexed(_ count: Int) -> (index: RowKeyIndex, keys: [RowKey?]) {
        var keys: [RowKey?] = Array(repeating: nil, count: count)
        var index = RowKeyIndex(capacity: count)
        for i in 0..<count {
            let key = i % 3 == 0 ? RowKey("category \(i)") : RowKey(UUID().uuidString.lowercased())
            let repeated = i % 97 == 5 ? keys[i - 5] : nil
            if index.insert(i, key: repeated ?? key, in: keys) == nil { keys[i] = repeated ?? key }
        }
        for i in stride(from: 7, to: count, by: 41) { keys[i] = nil }
        return (index, keys)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 100, 5_000])
    func groupedLookupsAnswerAsSingleOnes(count: Int) {
        let (index, keys) = Self.indexed(count)
        var wanted = keys.compactMap { $0 }
        wanted += (0..<20).map { _ in RowKey(UUID().uuidString.lowercased()) } + [RowKey("absent"), RowKey("")]
        wanted.shuffle()
        var answers: [Int?] = []
        index.forEachRow(of: wanted, in: keys) { position, row in
            #expect(position == answers.count)
            answers.append(row)
            return true
        }
        #expect(answers == wanted.map { index.row(of: $0, in: keys) })
        // Every key still in the array is found at its own row; a cleared one is never found.
        for (row, key) in keys.enumerated() {
            if let key { #expect(index.row(of: key, in: keys) == row) }
        }
    }

    @Test func aLookupAnsweredFalseStopsTheRest() {
        let (index, keys) = Self.indexed(100)
        let wanted = keys.compactMap { $0 }
        var seen = 0
        index.forEachRow(of: wanted, in: keys) { position, _ in
            seen += 1
            return position < 10
        }
        #expect(seen == 11)
    }
}
