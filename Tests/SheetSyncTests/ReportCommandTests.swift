import Foundation
import SheetSyncCore
import SheetValues
import Testing

/// `sheetsync report`: totals that match the workbook to the cent, computed here independently with
/// Foundation's `Decimal` from the sample's own cells; and a read-only command that writes nothing.
@Suite struct ReportCommandTests {
    /// The sample's Transactions rows as written, by header.
    private func sampleRows(_ name: String) throws -> [[String: String]] {
        let table = try TestWorkbook(folder: CLI.repoRoot.appendingPathComponent("samples").appendingPathComponent(name)).table(
            .transactions)
        return table.rows.map { row in
            Dictionary(zip(table.header, row.map(\.rawText)), uniquingKeysWith: { first, _ in first })
        }
    }

    private func decimal(_ text: Any?) throws -> Decimal {
        try #require(
            (text as? String).flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }, "\(String(describing: text))")
    }

    @Test func aMonthOfTheCleanSampleAddsUpToTheCent() async throws {
        let ledger = try await Ledger.synced()
        let run = try await ledger.run("report", "--month", "2026-01", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json, "\(run.stdout)")
        // Independently: every sample row is dated January 2026.
        var income = Decimal(0), expense = Decimal(0)
        var perCategory: [String: (total: Decimal, count: Int)] = [:]
        for row in try sampleRows("clean") {
            let amount = try decimal(row["amount"])
            if row["type"] == "income" { income += amount } else { expense += amount }
            let key = "\(row["category"] ?? "") \(row["type"] ?? "")"
            perCategory[key, default: (0, 0)].total += amount
            perCategory[key, default: (0, 0)].count += 1
        }
        #expect(try decimal(json["income"]) == income)
        #expect(try decimal(json["expense"]) == expense)
        #expect(try decimal(json["net"]) == income - expense)
        #expect(json["expense"] as? String == "1771.42" && json["income"] as? String == "3200.00" && json["net"] as? String == "1428.58")
        let period = try #require(json["period"] as? [String: Any])
        #expect(period["from"] as? String == "2026-01-01" && period["to"] as? String == "2026-01-31")
        let categories = try #require(json["categories"] as? [[String: Any]])
        #expect(categories.count == perCategory.count)
        for category in categories {
            let key = "\(category["name"] as? String ?? "") \(category["type"] as? String ?? "")"
            let expected = try #require(perCategory[key], "\(key)")
            #expect(try decimal(category["total"]) == expected.total, "\(key)")
            #expect(category["count"] as? Int == expected.count, "\(key)")
        }
        // Gifts is archived in the sample: its row still counts, and says so.
        let gifts = try #require(categories.first { $0["name"] as? String == "Gifts" })
        #expect(gifts["archived"] as? Bool == true && gifts["total"] as? String == "35.00")
        // Nothing in December 2025: the biggest move is the salary (3200), then the rent (1450).
        let change = try #require(json["topChange"] as? [String: Any])
        #expect(change["name"] as? String == "Salary" && change["change"] as? String == "+3200.00", "\(change)")
        #expect((json["rejected"] as? [Any])?.isEmpty == true)
    }

    @Test func rejectedRowsAreLeftOutAndMentioned() async throws {
        let ledger = try Ledger.unsynced("hand-edited")
        #expect(try await ledger.run("sync").status == 65)
        let run = try await ledger.run("report", "--month", "2026-01", "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(run.json)
        // Loaded: Groceries 54.20, Rent 1,234.50, Dining 12.5 (typed without id or type: an expense), the
        // pizza row twice (the copy gets a new id), Dining 15.00 (unpaid), and the 3200 salary typed without
        // an id. Rejected: 'groceries', 'Grocery', '12,50' and -5.
        #expect(json["expense"] as? String == "1362.40" && json["income"] as? String == "3200.00", "\(run.stdout)")
        var stored = Decimal(0)
        for row in try ledger.storeRows(.transactions).values where row[.type] == "expense" { stored += try decimal(row[.amount]) }
        #expect(try decimal(json["expense"]) == stored)
        let rejected = try #require(json["rejected"] as? [[String: Any]])
        let status = try #require(try await ledger.run("status", "--json").json)
        let statusRejected = try #require(status["rejected"] as? [[String: Any]]).filter { $0["tab"] as? String == "Transactions" }
        #expect(rejected.count == statusRejected.count && rejected.count == 4, "\(rejected)")
        #expect((json["notes"] as? [String])?.first?.contains("4 Transactions row(s) rejected") == true, "\(json)")
        let table = try await ledger.run("report", "--month", "2026-01")
        #expect(table.stdout.contains("note: 4 Transactions row(s) rejected at the last sync are not counted"), "\(table.stdout)")
    }

    @Test func unpaidRowsAreListed() async throws {
        let ledger = try Ledger.unsynced("hand-edited")
        #expect(try await ledger.run("sync").status == 65)
        let json = try #require(try await ledger.run("report", "--unpaid", "--json").json)
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.map { $0["transactionId"] as? String } == ["df00f653-0c8f-533b-9e13-da56528ecbe7"])
        #expect(json["expense"] as? String == "15.00" && json["period"] is NSNull)
        let csv = try await ledger.run("report", "--unpaid", "--csv")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "transactionId,date,type,amount,category,note,paidFlag,reimbursedFlag")
        #expect(
            lines.count == 2 && lines[1].hasPrefix("df00f653-0c8f-533b-9e13-da56528ecbe7,2026-01-12,expense,15.00,Dining,"), "\(csv.stdout)"
        )
    }

    @Test func byTagAndByMonthAndTheTopChangeAgainstThePreviousMonth() async throws {
        let ledger = try await Ledger.synced()
        #expect(try await ledger.run("add", "expense", "--amount", "0.10", "--category", "Groceries", "--date", "2026-02-03").status == 0)
        #expect(
            try await ledger.run(
                "add", "expense", "--amount", "0.20", "--category", "Groceries", "--date", "2026-02-04",
                "--tags", "food"
            ).status == 0)
        let february = try #require(try await ledger.run("report", "--month", "2026-02", "--json").json)
        #expect(february["expense"] as? String == "0.30")
        let change = try #require(february["topChange"] as? [String: Any])
        // Salary 3200 → 0 is the biggest move (Rent 1450 → 0 next).
        #expect(change["name"] as? String == "Salary" && change["change"] as? String == "-3200.00", "\(change)")
        let tags = try #require(try await ledger.run("report", "--year", "2026", "--by", "tag", "--json").json)
        let food = try #require((tags["tags"] as? [[String: Any]])?.first { $0["name"] as? String == "food" })
        #expect(food["total"] as? String == "162.58" && food["count"] as? Int == 4, "\(food)")
        let months = try await ledger.run("report", "--from", "2026-01-01", "--to", "2026-02-28", "--by", "month", "--csv").stdout
        #expect(
            months.split(separator: "\n").map(String.init) == [
                "month,type,total,count,archived", "2026-01,expense,1771.42,9,FALSE", "2026-02,expense,0.30,2,FALSE",
                "2026-01,income,3200.00,1,FALSE",
            ], "\(months)")
    }

    @Test func theTableAlignsAmountsOnTheRight() async throws {
        let ledger = try await Ledger.synced()
        let run = try await ledger.run("report", "--month", "2026-01")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let amountLines = lines.filter { $0.hasPrefix("  ") && ($0.contains("1450.00") || $0.contains("2.90") || $0.contains("3200.00")) }
        #expect(amountLines.count == 3, "\(run.stdout)")
        let ends = Set(
            amountLines.compactMap { line in
                line.range(of: #"\d+\.\d\d"#, options: .regularExpression).map { line.distance(from: line.startIndex, to: $0.upperBound) }
            })
        #expect(ends.count == 1, "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("net") && $0.hasSuffix("1428.58") }, "\(run.stdout)")
        #expect(!run.stdout.contains("█"), "no bars when stdout is not a terminal")
    }

    @Test func aTerminalGetsABarPerCategory() async throws {
        let ledger = try await Ledger.synced()
        // script(1) runs the command with a pseudo-terminal as its stdout, as a person's shell would.
        let script = URL(fileURLWithPath: "/usr/bin/script")
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "script(1) from util-linux is needed")
        let process = Process()
        process.executableURL = script
        process.arguments = ["-qec", "'\(try CLI.binary().path)' report --month 2026-01", "/dev/null"]
        process.currentDirectoryURL = ledger.folder
        var environment = ProcessInfo.processInfo.environment
        environment["SHEETSYNC_CONFIG"] = nil
        environment["HOME"] = ledger.folder.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        func bar(_ name: String) -> Int { lines.first { $0.hasPrefix("  \(name) ") }.map { $0.filter { $0 == "█" }.count } ?? -1 }
        // Scaled to the largest of its type: Rent (1450.00) gets the full 30, Transport (2.90) one.
        #expect(bar("Rent") == 30 && bar("Transport") == 1 && bar("Groceries") == 4, "\(lines)")
    }

    @Test func reportWritesNothingAtAll() async throws {
        let ledger = try await Ledger.synced()
        let before = try ledger.everyByte()
        for arguments in [["report"], ["report", "--year", "2026", "--json"], ["report", "--unpaid", "--csv"]] {
            let run = try await CLI.run(arguments, in: ledger.folder)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let after = try ledger.everyByte()
        // Every byte and mode equal, and no file more: no WAL, SHM or lock file appeared.
        #expect(after == before)
    }

    @Test func badPeriodsAreUsageErrorsAndAMissingStoreIsConfiguration() async throws {
        let ledger = try await Ledger.synced()
        for arguments in [
            ["report", "--month", "2026-13"], ["report", "--month", "2026-01", "--year", "2026"],
            ["report", "--from", "2026-01-01"], ["report", "--from", "2026-02-01", "--to", "2026-01-01"],
        ] {
            let run = try await CLI.run(arguments + ["--json"], in: ledger.folder)
            #expect(run.status == 64, "\(arguments)")
            let error = try #require(run.json?["error"] as? [String: Any], "\(run.stdout)")
            #expect(error["kind"] as? String == "usage" && error["exitCode"] as? Int == 64)
        }
        let empty = try TestWorkbook.scratch("no-store")
        let run = try await CLI.run(["report", "--json"], in: empty)
        #expect(run.status == 78)
        let message = try #require((run.json?["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("no store at") && message.contains("sheetsync sync"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
    }
}
