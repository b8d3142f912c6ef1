import ArgumentParser
import Foundation
import SheetSync

extension SheetSyncCommand {
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Bring back rows deleted from the store (kept 90 days); the next sync writes them to the workbook.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Ids of the rows to restore (transactionId, receiptId, recurringRuleId or category name).") var ids: [String] = []
        @Option(help: "Restore every row deleted since this time (YYYY-MM-DD or an ISO timestamp).") var since: String?
        @Flag(help: "List the deleted rows kept for restore; change nothing.") var list = false

        func run() async throws {
            try await global.reporting {
                let restore = RowRestore(try global.workspace())
                if list {
                    let rows = try await restore.list(since: since)
                    if global.json {
                        Output.json(rows)
                    } else {
                        rows.forEach {
                            let what = ($0.summary ?? "").isEmpty ? "" : " \($0.summary ?? "")"
                            Output.line(
                                "\($0.deletedAt) \($0.tab) \($0.id)\(what) (\($0.reason)\($0.inStore ? "; in the store again" : ""))")
                        }
                    }
                    return .ok
                }
                let report = try await restore.restore(ids: ids, since: since, dryRun: global.dryRun)
                if global.json { Output.json(report) } else if !global.quiet { report.lines.forEach(Output.line) }
                return .ok
            }
        }
    }
}
