import Foundation
import SheetSync
import SheetSyncCore
import SheetSyncStore
import Testing

/// `init` gives a new ledger the system's time zone (`$TZ`, else `/etc/localtime`), says which it
/// chose and why, and `init --timezone ZONE` chooses another.
@Suite struct InitTimeZoneTests {
    func zones(_ folder: URL) throws -> (sheet: String?, store: String?) {
        let sheet = try TestWorkbook(folder: folder).records(.settings, now: Timestamp(millisecondsSinceEpoch: 0)).values.first
        let store = try LedgerStore.inMemoryCopy(of: folder.appendingPathComponent("sheetsync.sqlite").path).records(in: .settings).first
        return (sheet?[.timezone], store?[.timezone])
    }

    @Test func initTakesTheZoneOfTZInEveryFormAndSaysSo() async throws {
        for (tz, zone) in [
            ("Europe/Berlin", "Europe/Berlin"), (":Asia/Tokyo", "Asia/Tokyo"), (":/usr/share/zoneinfo/America/Chicago", "America/Chicago"),
        ] {
            let folder = try TestWorkbook.scratch("tz")
            let run = try await CLI.run(["init"], in: folder, environment: ["TZ": tz])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try zones(folder) == (zone, zone), "TZ=\(tz)")
            #expect(run.stdout.contains("time zone \(zone) (from $TZ); `sheetsync init --timezone ZONE` chooses another"), "\(run.stdout)")
        }
    }

    @Test func initTimezoneOverridesTheSystemsZoneAndABadOneIsRefused() async throws {
        let folder = try TestWorkbook.scratch("tz")
        let run = try await CLI.run(["init", "--timezone", "Pacific/Auckland"], in: folder, environment: ["TZ": "Europe/Berlin"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try zones(folder) == ("Pacific/Auckland", "Pacific/Auckland"))
        #expect(run.stdout.contains("time zone Pacific/Auckland (from --timezone)"), "\(run.stdout)")

        let bad = try TestWorkbook.scratch("tz")
        let refused = try await CLI.run(["init", "--timezone", "Berlin"], in: bad)
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("--timezone 'Berlin' is not an IANA time zone (did you mean 'Europe/Berlin'?)"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: bad.path).isEmpty, "nothing created")
    }

    /// The zone decided when there is no `$TZ`: `/etc/localtime`'s link into a zoneinfo folder.
    @Test func theSystemZoneComesFromTZThenTheLocaltimeLink() throws {
        let folder = try TestWorkbook.scratch("localtime")
        let link = folder.appendingPathComponent("localtime")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/usr/share/zoneinfo/Europe/Lisbon")
        #expect(
            SystemTimeZone.detect(environment: [:], localtime: link.path)
                == SystemTimeZone(identifier: "Europe/Lisbon", source: "/etc/localtime"))
        #expect(SystemTimeZone.detect(environment: ["TZ": "Asia/Tokyo"], localtime: link.path).identifier == "Asia/Tokyo")
        #expect(SystemTimeZone.detect(environment: ["TZ": "Not/AZone"], localtime: link.path).identifier == "Europe/Lisbon")
    }
}
