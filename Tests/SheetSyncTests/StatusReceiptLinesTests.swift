import Foundation
import Testing

@testable import SheetSync

/// `status` says how many receipts wait for upload and lists each failed one with its error.
@Suite struct StatusReceiptLinesTests {
    static func report(queued: Int, failed: [StatusReport.FailedReceipt]) -> StatusReport {
        StatusReport(
            store: "/l/ledger.sqlite", remote: "Google spreadsheet x", datasetId: nil, lastSyncAt: nil, dateOrder: "mdy",
            decimalSeparator: ".", pendingLocalChanges: [:],
            rejected: [], deletedRows: 0, recentConflicts: [], queuedReceipts: queued, failedReceipts: failed)
    }

    @Test func failedReceiptsAreListedWithTheirErrorAndQueuedOnesCounted() throws {
        let failed = StatusReport.FailedReceipt(
            receiptId: "0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01", transactionId: "9e6a2b4c-5a4d-4f88-8d8a-5a4a0e3f6d04",
            file: "/q/a.jpg", error: "its queued file /q/a.jpg is gone", attempts: 1)
        let lines = Self.report(queued: 2, failed: [failed]).lines
        #expect(lines.contains("receipts queued for upload: 2"))
        #expect(lines.contains("failed receipt uploads: 1 (`sheetsync receipt retry` or `receipt forget`)"))
        #expect(
            lines.contains(
                "  0b9f5c1e-8d1c-4c55-9a57-2f1f7d0c9a01 of transaction 9e6a2b4c-5a4d-4f88-8d8a-5a4a0e3f6d04: its queued file /q/a.jpg is gone"
            ))
    }

    @Test func nothingIsSaidWhenNoReceiptWaits() throws {
        let lines = Self.report(queued: 0, failed: []).lines
        #expect(!lines.contains { $0.contains("receipt") })
    }
}
