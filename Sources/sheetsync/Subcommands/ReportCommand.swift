import ArgumentParser
import Foundation
import SheetSync
import SheetSyncCore

extension SheetSyncCommand {
    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Where the money went: totals per category, income, expense and net for a period; changes nothing.",
            discussion: """
                Without a period option the report covers the current month in the dataset's time zone \
                (with --unpaid or --unreimbursed: every date). Rows rejected at the last sync are not counted \
                and are mentioned.
                """)

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("A calendar month.", valueName: "YYYY-MM")) var month: String?
        @Option(help: ArgumentHelp("A calendar year.", valueName: "YYYY")) var year: String?
        @Option(help: ArgumentHelp("First day of a range (with --to).", valueName: "YYYY-MM-DD")) var from: String?
        @Option(help: ArgumentHelp("Last day of a range (with --from).", valueName: "YYYY-MM-DD")) var to: String?
        @Option(help: ReportGrouping.help("Group totals by category, tag or month.")) var by: ReportGrouping = .category
        @Flag(help: "Print CSV on stdout.") var csv = false
        @Flag(help: "Only the rows marked unpaid (paidFlag), listed.") var unpaid = false
        @Flag(help: "Only the rows marked unreimbursed (reimbursedFlag), listed.") var unreimbursed = false

        func validate() throws {
            _ = try period()
            if csv && global.json { throw ValidationError("--csv and --json cannot be used together") }
        }

        /// The period the options name, or nil for the default.
        func period() throws -> ReportPeriod? {
            let chosen = [month != nil, year != nil, from != nil || to != nil].filter { $0 }.count
            guard chosen <= 1 else { throw ValidationError("use one of --month, --year or --from/--to") }
            if let month {
                guard let period = ReportPeriod.month(month) else {
                    throw ValidationError("--month '\(month)' is not a month (use YYYY-MM, e.g. 2026-01)")
                }
                return period
            }
            if let year {
                guard let period = ReportPeriod.year(year) else {
                    throw ValidationError("--year '\(year)' is not a year (use YYYY, e.g. 2026)")
                }
                return period
            }
            guard from != nil || to != nil else { return nil }
            guard let fromText = from, let toText = to else { throw ValidationError("--from and --to go together (both YYYY-MM-DD)") }
            guard let start = LocalDate(iso: fromText) else { throw ValidationError("--from '\(fromText)' is not a date (use YYYY-MM-DD)") }
            guard let end = LocalDate(iso: toText) else { throw ValidationError("--to '\(toText)' is not a date (use YYYY-MM-DD)") }
            guard start <= end else { throw ValidationError("--from \(fromText) is after --to \(toText)") }
            return ReportPeriod(kind: .range, from: start, to: end)
        }

        func run() async throws {
            try await global.reporting {
                var filter: OpenRowFilter = []
                if unpaid { filter.insert(.unpaid) }
                if unreimbursed { filter.insert(.unreimbursed) }
                let output = try await Reports(global.workspace()).report(ReportRequest(period: try period(), grouping: by, filter: filter))
                if global.json {
                    Output.json(output)
                } else if csv {
                    Output.text(output.csv)
                } else {
                    output.table(bars: isatty(STDOUT_FILENO) == 1).forEach(Output.line)
                }
                return .ok
            }
        }
    }
}
