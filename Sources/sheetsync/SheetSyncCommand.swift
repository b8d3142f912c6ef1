import ArgumentParser
import SheetSync

@main
struct SheetSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheetsync",
        abstract: "Keep a personal expense ledger in SQLite in step with a spreadsheet people edit by hand.",
        discussion: """
            Getting started: in an empty folder, `sheetsync init` creates a CSV workbook (Transactions, Receipts, \
            Categories, RecurringRules and Settings, with starter categories) and the store sheetsync.sqlite beside it; \
            `sheetsync add expense --amount 12.50 --category Dining` records an expense; `sheetsync category add NAME` \
            adds a category; `sheetsync sync` brings the workbook and the store in step (edit the workbook in any \
            spreadsheet program); `sheetsync report` shows where the money went this month.

            `sheetsync help tabs` prints every tab's columns: which are required, the values they allow, how dates \
            and amounts may be typed and what sheetsync fills in (docs/tabs.md).

            Options go after the subcommand: `sheetsync sync --dry-run`. The config is read from --config FILE, else \
            $SHEETSYNC_CONFIG, else ./sheetsync.json, else ~/.config/sheetsync/config.json; without one, the CSV \
            workbook in the current folder is used.

            Exit codes: 0 done; 65 done in part (rows rejected or changes held back: read stderr); 75 temporary \
            (retry later, nothing was lost); 78 configuration; 64 usage; 1 internal error.
            """,
        version: SheetSyncVersion.current,
        subcommands: [
            Init.self, Pull.self, Push.self, Sync.self, Status.self, Check.self, Materialize.self,
            Import.self, Export.self, Add.self, Report.self, Receipt.self, Category.self, Rule.self, Restore.self, Auth.self,
        ]
    )
}
