import Foundation
import SheetSyncCore
import SheetValues
import Testing

@testable import SheetSync

/// What a run held back stays in the store's state for `status`, as issues with their codes; a hold
/// recorded as plain lines (by a version before the codes) still reads, and keeps when it began.
@Suite struct HeldBackStateTests {
    static let issue = SyncIssue.heldBack(.massDelete, at: .tab(.recurringRules), "this run would delete every row (2 of 2)")
    static let began = "2026-11-01T08:00:00.000Z"
    static let now = Timestamp(iso: "2026-11-28T12:00:00.000Z")!

    @Test func aHoldKeptAsIssuesReadsBackTheSameAndIsNotRewritten() throws {
        let state = try #require(SyncRecorder.heldState([Self.issue], now: Self.now, recorded: nil))
        let read = try #require(StatusReport.HeldBack(stateText: state))
        #expect(read.since == Self.now.description && read.reasons == [Self.issue])
        #expect(SyncRecorder.heldState([Self.issue], now: Self.now, recorded: state) == nil)
        let other = SyncIssue.heldBack(.massDelete, at: .tab(.transactions), "this run would delete every row (10 of 10)")
        let changed = try #require(SyncRecorder.heldState([other], now: Self.now, recorded: state))
        #expect(StatusReport.HeldBack(stateText: changed)?.reasons == [other])
    }

    @Test func aHoldRecordedAsPlainLinesReadsAsNotesAndKeepsItsStart() throws {
        let legacy = Self.began + "\n" + Self.issue.text
        let read = try #require(StatusReport.HeldBack(stateText: legacy))
        #expect(read.since == Self.began)
        #expect(read.reasons.map(\.code) == [.note] && read.reasons.map(\.text) == [Self.issue.text])
        // The next run holding the same back records it with its code, from the same start.
        let state = try #require(SyncRecorder.heldState([Self.issue], now: Self.now, recorded: legacy))
        let rewritten = try #require(StatusReport.HeldBack(stateText: state))
        #expect(rewritten.since == Self.began && rewritten.reasons == [Self.issue])
    }
}
