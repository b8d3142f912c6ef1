import ArgumentParser
import Foundation
import SheetSync
import SheetSyncCore

extension SheetSyncCommand {
    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Create or link the remote workbook and the local store.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Create no starter categories.") var empty = false
        @Option(help: "A new ledger's IANA time zone, such as Europe/Berlin; default the system's ($TZ, /etc/localtime).")
        var timezone: String?
        @Option(help: "How dates typed with the year last read: dmy (26/11/2026), mdy (11/26/2026) or ymd (year first only).")
        var dateOrder: LocalForms.DateOrder?
        @Option(help: "The decimal mark of amounts typed as text: . (1,234.50) or , (1.234,50).")
        var decimalSeparator: LocalForms.DecimalSeparator?
        func run() async throws {
            try await global.reporting {
                let report = try await LedgerSetup(global.workspace()).initialize(
                    dryRun: global.dryRun, starterCategories: !empty, timeZone: timezone, forms: (dateOrder, decimalSeparator))
                return Output.report(report, global)
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Pending local changes, rejected rows, last sync, dataset.")
        @OptionGroup var global: GlobalOptions
        func run() async throws {
            try await global.reporting {
                let status = try await Inspection(global.workspace()).status()
                if global.json { Output.json(status) } else { status.lines.forEach(Output.line) }
                return .ok
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate the remote workbook (or the CSV folder / .xlsx at PATH); change nothing.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A CSV workbook folder or an .xlsx file.", completion: .file()) var path: String?
        func run() async throws {
            try await global.reporting {
                let report = try await Inspection(global.workspace()).check(path: path)
                if global.json {
                    Output.json(report)
                } else if !global.quiet {
                    report.checkLines.forEach(Output.line)
                    // What a sync would do on its own (a clock clamped, a copy given an id), as `sync` says it.
                    report.notices.forEach { Output.issue($0) }
                }
                report.errors.forEach { Output.issue($0) }
                if !global.json {
                    for r in report.rejected { Output.error(r.summary) }
                }
                return report.exitCode
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Write a snapshot of the local store as a workbook.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The folder (csv) or file (xlsx) to write.", completion: .file()) var path: String
        @Option(help: ExportFormat.help("The workbook's kind (default: xlsx for a PATH ending in .xlsx, else csv).")) var format:
            ExportFormat?
        @Flag(help: "Write over an existing workbook at PATH (never the configured one).") var force = false

        func validate() throws {
            // A name like a file of another kind (`out.ods`, `single.csv`) would become a folder of CSVs.
            let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
            if format == nil, !ext.isEmpty, chosenFormat == .csv {
                throw ValidationError(
                    "'\(path)' names a .\(ext) file, which export does not write: it writes xlsx (a file ending in .xlsx) "
                        + "or csv (a folder of five .csv files: name a folder, or add --format csv to use this name for one)")
            }
        }

        /// The format asked for, or the one PATH names (`book.xlsx` is a file, not a folder named so).
        var chosenFormat: ExportFormat {
            if let format { return format }
            return XLSXWorkbookRemote.isWorkbookFile(URL(fileURLWithPath: path)) ? .xlsx : .csv
        }

        func run() async throws {
            try await global.reporting {
                let url = URL(fileURLWithPath: path)
                let count = try await LedgerExport(global.workspace()).export(
                    to: url, format: chosenFormat, force: force, dryRun: global.dryRun)
                let verb = global.dryRun ? "would export" : "exported"
                if global.json {
                    Output.json(["path": url.path, "rows": String(count), "dryRun": String(global.dryRun)])
                } else if !global.quiet {
                    let what = chosenFormat == .xlsx ? "the file" : "the folder (five .csv files)"
                    Output.line("\(verb) \(count) row\(count == 1 ? "" : "s") to \(what) \(url.path)")
                }
                return .ok
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Merge a hand-edited CSV folder or .xlsx, or a bank statement (OFX/QFX, QIF, CAMT.053, CSV), into the local store.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A CSV workbook folder, an .xlsx file, or a bank statement file.", completion: .file()) var path: String
        @Option(help: "The import.profiles entry of the config to read a bank's CSV export with (default: the one the file matches).")
        var profile: String?
        @Flag(help: "Combine categories whose names are equal ignoring case (the store's version wins).")
        var mergeCategories = false
        @Flag(help: "Load rows without ids even when a transaction with the same content is in the store.")
        var allowDuplicates = false
        @Flag(help: "Create the categories the file's rows name that neither the store nor the file has.")
        var createCategories = false
        @Option(help: "A sheet of a budget .xlsx to read (repeatable; default: every sheet with a date and an amount column).")
        var sheet: [String] = []
        func run() async throws {
            try await global.reporting {
                let url = URL(fileURLWithPath: path)
                if !sheet.isEmpty || LedgerImport.isStatement(url) || LedgerImport.isBudgetWorkbook(url, sheets: sheet) {
                    let options = StatementImportOptions(
                        profile: profile, dryRun: global.dryRun, mergeCategories: mergeCategories, createCategories: createCategories,
                        sheets: sheet)
                    return Output.statementImport(
                        try await LedgerImport(global.workspace()).importStatement(at: url, options: options), global)
                }
                let options = ImportOptions(
                    mergeCategories: mergeCategories, allowDuplicates: allowDuplicates, createCategories: createCategories,
                    dryRun: global.dryRun)
                let report = try await LedgerImport(global.workspace()).importWorkbook(at: URL(fileURLWithPath: path), options: options)
                if !global.json && !global.quiet { Output.line(report.summary) }
                return Output.report(global.json ? report.json : report.printable, global)
            }
        }
    }

    struct Materialize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "materialize", abstract: "Turn recurring rules into transactions.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Last day to create occurrences for (YYYY-MM-DD); default today in the dataset's time zone.")
        var through: String?

        func validate() throws {
            if let through, LocalDate(iso: through) == nil {
                throw ValidationError("--through '\(through)' is not a date (use YYYY-MM-DD)")
            }
        }

        func run() async throws {
            try await global.reporting {
                let report = try await RecurringRules(global.workspace()).materialize(
                    through: through.flatMap(LocalDate.init(iso:)), dryRun: global.dryRun)
                if global.json {
                    Output.json(report)
                } else if !global.quiet {
                    report.lines(everyRule: global.verbose || global.dryRun).forEach(Output.line)
                    report.notices.forEach { Output.issue($0, noticeOnStandardError: true) }
                }
                for r in report.rejected { Output.error("RecurringRules \(r.id): \(r.message)\(r.hint.isEmpty ? "" : " — \(r.hint)")") }
                return report.rejected.isEmpty ? .ok : .dataError
            }
        }
    }
}

extension LocalForms.DateOrder: ExpressibleByArgument {}
extension LocalForms.DecimalSeparator: ExpressibleByArgument {}
