import Foundation
import SheetSync
import SheetSyncCore
import Testing

/// A config file with a mistake exits 78 and points at it: line and column, key name, key path.
@Suite struct ConfigErrorTests {
    /// A ledger whose config is `text`, run with `--json`: the error object, and stderr.
    private func failure(_ text: String, arguments: [String] = ["sync", "--json"]) async throws -> (
        error: [String: Any], stderr: String, ledger: Ledger
    ) {
        let ledger = try Ledger.unsynced()
        try Data(text.utf8).write(to: ledger.folder.appendingPathComponent("sheetsync.json"))
        let before = try ledger.everyByte()
        let run = try await CLI.run(arguments, in: ledger.folder)
        #expect(run.status == 78, "\(run.stderr)")
        let error = try #require(run.json?["error"] as? [String: Any], "\(run.stdout)")
        #expect(error["kind"] as? String == "configuration" && error["exitCode"] as? Int == 78)
        #expect(run.failureCode == .configInvalid, "\(error)")
        #expect(!((error["hint"] as? String) ?? "").isEmpty)
        // Nothing was created: no store, no workbook change.
        #expect(try ledger.everyByte() == before)
        return (error, run.stderr, ledger)
    }

    /// A remote path of the wrong kind (a folder for xlsx, a file for csv) is the config's mistake: 78
    /// naming the key and the path, never an internal error; nothing is created or changed.
    @Test func aRemotePathOfTheWrongKindIsNamed() async throws {
        let xlsxFolder = try await failure(#"{"store": "ledger.sqlite", "remote": {"type": "xlsx", "path": "book"}}"#)
        #expect((xlsxFolder.error["message"] as? String)?.contains("remote.path") == true, "\(xlsxFolder.error)")
        #expect((xlsxFolder.error["message"] as? String)?.contains("is a folder") == true, "\(xlsxFolder.error)")
        let csvFile = try await failure(#"{"store": "ledger.sqlite", "remote": {"type": "csv", "path": "book/Transactions.csv"}}"#)
        #expect((csvFile.error["message"] as? String)?.contains("is a file") == true, "\(csvFile.error)")
    }

    @Test func aSyntaxErrorIsNamedByLineAndColumn() async throws {
        let text = """
            {
              "store": "ledger.sqlite"
              "remote": {"type": "csv", "path": "book"}
            }
            """
        let (error, stderr, ledger) = try await failure(text)
        let message = try #require(error["message"] as? String)
        let path = ledger.folder.appendingPathComponent("sheetsync.json").path
        #expect(message.hasPrefix("config file \(path): line 3, column 3: "), "\(message)")
        #expect(stderr.contains("line 3, column 3"))
    }

    @Test func aTrailingCommaIsRefused() async throws {
        let text = "{\"store\": \"ledger.sqlite\",\n \"remote\": {\"type\": \"csv\", \"path\": \"book\",},\n}"
        let (error, _, _) = try await failure(text)
        let message = try #require(error["message"] as? String)
        #expect(message.contains("line 2, column 43") && message.contains("trailing comma"), "\(message)")
    }

    @Test func aKeyGivenTwiceIsRefused() async throws {
        let text = "{\"store\": \"ledger.sqlite\", \"remote\": {\"type\": \"csv\", \"path\": \"book\"},\n \"store\": \"other.sqlite\"}"
        let (error, _, _) = try await failure(text)
        #expect((error["message"] as? String)?.hasSuffix("line 2, column 2: duplicate key 'store'") == true, "\(error)")
    }

    @Test func anUnknownKeyIsNamedWithTheNearestKnownOne() async throws {
        let (error, stderr, _) = try await failure(#"{"store": "ledger.sqlite", "remtoe": {"type": "csv", "path": "book"}}"#)
        let message = try #require(error["message"] as? String)
        #expect(message.contains("unknown key 'remtoe' (did you mean 'remote'?)"), "\(message)")
        #expect(stderr.contains("did you mean 'remote'?"))
        let nested = try await failure(#"{"store": "s.sqlite", "remote": {"type": "csv", "pth": "book", "colour": 1}}"#)
        let text = try #require(nested.error["message"] as? String)
        #expect(
            text.contains("unknown key 'remote.pth' (did you mean 'remote.path'?)")
                && text.contains("unknown key 'remote.colour' (known keys in remote:"), "\(text)")
    }

    @Test func aWrongTypeIsNamedByItsKeyPath() async throws {
        let (error, _, _) = try await failure(#"{"store": "ledger.sqlite", "remote": {"type": "cvs", "path": "book"}}"#)
        #expect(
            (error["message"] as? String)?.contains("remote.type: expected one of csv, xlsx, google, found 'cvs' (did you mean 'csv'?)")
                == true,
            "\(error)")
        let numbers = try await failure(#"{"store": 7, "remote": {"type": "csv", "path": "book"}, "backups": "five"}"#)
        let message = try #require(numbers.error["message"] as? String)
        #expect(
            message.contains("store: expected a string, found the number 7") && message.contains("backups: expected a whole number"),
            "\(message)")
        let list = try await failure(#"{"store": "s.sqlite", "remote": ["csv"]}"#)
        #expect((list.error["message"] as? String)?.contains("remote: expected an object, found a list") == true)
    }

    @Test func aMissingConfigFileIsNamedWithThePlacesLookedIn() async throws {
        let folder = try TestWorkbook.scratch("no-config")
        let run = try await CLI.run(["status", "--config", "nope.json", "--json"], in: folder)
        #expect(run.status == 78)
        #expect(run.failureCode == .configMissing, "\(run.stdout)")
        let error = try #require(run.json?["error"] as? [String: Any])
        #expect((error["message"] as? String)?.contains("\(folder.path)/nope.json (named by --config) does not exist") == true, "\(error)")
        let hint = try #require(error["hint"] as? String)
        #expect(hint.contains("$SHEETSYNC_CONFIG") && hint.contains("./sheetsync.json") && hint.contains("~/.config/sheetsync/config.json"))
        let fromEnv = try await CLI.run(["status"], in: folder, environment: ["SHEETSYNC_CONFIG": "/nowhere/c.json"])
        #expect(
            fromEnv.status == 78 && fromEnv.stderr.contains("/nowhere/c.json (named by $SHEETSYNC_CONFIG) does not exist"),
            "\(fromEnv.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func notesAndTheBackupsToKeepKeyAreAccepted() async throws {
        let ledger = try Ledger.unsynced()
        let text =
            #"{"_comment": "mine", "store": "ledger.sqlite", "backupsToKeep": 0, "remote": {"type": "CSV", "path": "book", "_note": 1}}"#
        try Data(text.utf8).write(to: ledger.folder.appendingPathComponent("sheetsync.json"))
        let run = try await ledger.run("sync")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ledger.storeRows(.transactions).count == 10)
    }
}
