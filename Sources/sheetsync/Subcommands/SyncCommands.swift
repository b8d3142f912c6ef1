import ArgumentParser
import SheetSync
import SheetSyncCore

/// Options of the commands that move rows between the store and the workbook.
struct TransferOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Allow a run that deletes more than half of a tab's rows.")
    var allowMassDelete = false

    func run(_ mode: SyncMode) async throws {
        try await global.reporting {
            let report = try await WorkbookSync(try global.workspace()).run(
                SyncOptions(mode: mode, dryRun: global.dryRun, allowMassDelete: allowMassDelete, listsChanges: global.verbose))
            return Output.report(report, global)
        }
    }
}

extension SheetSyncCommand {
    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pull", abstract: "Bring workbook changes into the local store.")
        @OptionGroup var options: TransferOptions
        func run() async throws { try await options.run(.pull) }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "push", abstract: "Write local changes to the workbook.")
        @OptionGroup var options: TransferOptions
        func run() async throws { try await options.run(.push) }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "Pull and push under one lock (the cron job).")
        @OptionGroup var options: TransferOptions
        @Flag(name: .long, help: "Also turn recurring rules into transactions (sync, materialize, sync).")
        var materialize = false
        func run() async throws {
            if materialize {
                try await options.global.reporting {
                    let report = try await WorkbookSync(try options.global.workspace()).runMaterializing(
                        SyncOptions(
                            mode: .sync, dryRun: options.global.dryRun, allowMassDelete: options.allowMassDelete,
                            listsChanges: options.global.verbose))
                    return Output.report(report, options.global)
                }
            } else {
                try await options.run(.sync)
            }
        }
    }
}
