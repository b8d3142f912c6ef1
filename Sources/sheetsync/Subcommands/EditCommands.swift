import ArgumentParser
import Foundation
import SheetSync

extension SheetSyncCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a transaction to the local store; prints its id.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: TransactionKind.help("The transaction's type.")) var type: TransactionKind
        @Option(help: "An amount of zero or more, such as 12.50.") var amount: String
        @Option(help: "An existing category name (case-sensitive).") var category: String
        @Option(help: "YYYY-MM-DD; default today in the dataset's time zone.") var date: String?
        @Option(help: "A note.") var note: String = ""
        @Option(help: "Comma-separated tags.") var tags: String = ""

        func run() async throws {
            try await global.reporting {
                let id = try await Transactions(global.workspace()).add(
                    NewTransaction(
                        type: type.rawValue, amount: amount, category: category, date: date, note: note, tags: tags),
                    dryRun: global.dryRun)
                if global.json {
                    Output.json(["transactionId": id, "dryRun": String(global.dryRun)])
                } else if !global.quiet {
                    Output.line(global.dryRun ? "would add transaction \(id)" : id)
                }
                return .ok
            }
        }
    }

    struct Receipt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "receipt",
            abstract: "Receipt images.", subcommands: [AddReceipt.self, Retry.self, Forget.self])

        struct AddReceipt: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Queue receipt files for a transaction; push uploads them.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The transaction's id.") var transactionId: String
            @Argument(help: "Image files.", completion: .file()) var files: [String]
            func run() async throws {
                try await global.reporting {
                    let ids = try await Receipts(global.workspace()).add(
                        transactionId: transactionId, files: files.map { URL(fileURLWithPath: $0) }, dryRun: global.dryRun)
                    if global.json {
                        Output.json(["receiptIds": ids])
                    } else if !global.quiet {
                        ids.forEach { Output.line(global.dryRun ? "would add receipt \($0)" : $0) }
                    }
                    return .ok
                }
            }
        }
    }

    struct Category: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "category",
            abstract: "Categories.", subcommands: [AddCategory.self, List.self, Archive.self, Rename.self])

        struct AddCategory: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add a category (the next sync writes it to the sheet).")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The category's name (case-sensitive).") var name: String
            @Option(help: CategoryKind.help("Whether the category is for expenses, income or both.")) var type: CategoryKind = .expense
            @Option(help: "An emoji shown beside the name.") var emoji: String = ""
            @Option(help: "A colour such as #4caf50.") var color: String = ""
            func run() async throws {
                try await global.reporting {
                    let added = try await Categories(global.workspace()).add(
                        NewCategory(name: name, type: type.rawValue, emoji: emoji, colorHex: color), dryRun: global.dryRun)
                    if global.json {
                        Output.json(added ? ["added": name, "dryRun": String(global.dryRun)] : ["alreadyThere": name])
                    } else if !added && !global.quiet {
                        Output.line("category '\(name)' is already there; nothing changed")
                    } else if global.dryRun && !global.quiet {
                        Output.line("would add category '\(name)'")
                    }
                    return .ok
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the categories (archived ones with --all); changes nothing.")
            @OptionGroup var global: GlobalOptions
            @Flag(help: "Include archived categories.") var all = false
            func run() async throws {
                try await global.reporting {
                    let categories = try await Categories(global.workspace()).list(all: all)
                    if global.json {
                        Output.json(categories)
                    } else {
                        let width = categories.map(\.name.count).max() ?? 0
                        for c in categories {
                            let name = c.name.padding(toLength: width, withPad: " ", startingAt: 0)
                            Output.line(
                                "\(name)  \(c.type.padding(toLength: 7, withPad: " ", startingAt: 0))  \(c.transactions) transaction\(c.transactions == 1 ? "" : "s")"
                                    + (c.isActive ? "" : "  (archived)"))
                        }
                    }
                    return .ok
                }
            }
        }

        struct Archive: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "archive",
                abstract: "Archive a category (isActive false); rows that name it stay valid.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "The category's name.") var name: String
            func run() async throws {
                try await global.reporting {
                    try await Categories(global.workspace()).archive(name, dryRun: global.dryRun)
                    if global.json {
                        Output.json(["archived": name, "dryRun": String(global.dryRun)])
                    } else if global.dryRun && !global.quiet {
                        Output.line("would archive category '\(name)'")
                    }
                    return .ok
                }
            }
        }

        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "rename", abstract: "Rename a category and re-point its transactions and rules.")
            @OptionGroup var global: GlobalOptions
            @Argument var old: String
            @Argument var new: String
            func run() async throws {
                try await global.reporting {
                    let report = try await Categories(global.workspace()).rename(from: old, to: new, dryRun: global.dryRun)
                    if global.json {
                        Output.json([
                            "renamed": old, "to": report.new, "rowsRepointed": String(report.moved), "dryRun": String(report.dryRun),
                        ])
                    } else if global.verbose || global.dryRun {
                        Output.line(report.summary)
                    }
                    return .ok
                }
            }
        }
    }

    struct Auth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "auth", abstract: "Google sign-in.", subcommands: [Login.self])

        struct Login: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "login", abstract: "One-time OAuth consent through a loopback redirect.")
            @OptionGroup var global: GlobalOptions
            @Option(
                help: "The OAuth client JSON (an 'installed' app client) from the Google Cloud console.",
                completion: .file(extensions: ["json"]))
            var client: String
            func run() async throws {
                try await global.reporting {
                    let path = try await LedgerSetup(global.workspace()).authLogin(clientFile: URL(fileURLWithPath: client)) { url in
                        Output.error("open this URL in a browser to allow sheetsync access:\n\(url)")
                    }
                    if !global.quiet { Output.line("saved credentials to \(path.path)") }
                    return .ok
                }
            }
        }
    }
}
