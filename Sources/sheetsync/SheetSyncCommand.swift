import ArgumentParser
import SheetSync

@main
struct SheetSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheetsync",
        abstract: "Keep a personal expense ledger in SQLite in step with a spreadsheet people edit by hand.",
        version: SheetSyncVersion.current,
        subcommands: [
            Init.self, Pull.self, Push.self, Sync.self, Status.self, Check.self, Materialize.self,
            Import.self, Export.self, Add.self, Report.self, Receipt.self, Category.self, Restore.self, Auth.self,
        ]
    )
}
