import ArgumentParser
import SheetSync

extension SheetSyncCommand.Receipt {
    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Try failed queued receipt uploads again on the next push (all failed ones without ids).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Receipt ids (default: every failed one).") var receiptIds: [String] = []
        func run() async throws {
            try await global.reporting {
                let ids = try await Receipts(global.workspace()).retry(receiptIds, dryRun: global.dryRun)
                if global.json { Output.json(["receiptIds": ids]) } else if !global.quiet { ids.forEach(Output.line) }
                return .ok
            }
        }
    }

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget", abstract: "Drop queued receipts (and their queued copies) for good.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Receipt ids.") var receiptIds: [String]
        func run() async throws {
            try await global.reporting {
                let ids = try await Receipts(global.workspace()).forget(receiptIds, dryRun: global.dryRun)
                if global.json { Output.json(["receiptIds": ids]) } else if !global.quiet { ids.forEach(Output.line) }
                return .ok
            }
        }
    }
}
