import Foundation
import Testing

/// The randomized model test over Google: seeded edits on both sides through the
/// emulator, faults at random requests, and after every round convergence, idempotence, no lost update,
/// no resurrection and frozen rejected rows. A failure prints its seed;
/// `SHEETSYNC_GOOGLE_MODEL_SEED=<seed> SHEETSYNC_GOOGLE_MODEL_CASES=1` replays it.
@Suite struct GoogleModelTests {
    /// 20 cases by default, in two shards with an emulator each.
    @Test(arguments: 0..<2)
    func randomEditsOnBothSidesOfASpreadsheetConvergeWithoutLostUpdates(shard: Int) async throws {
        let env = ProcessInfo.processInfo.environment
        let cases = Int(env["SHEETSYNC_GOOGLE_MODEL_CASES"] ?? "") ?? 20
        let first = UInt64(env["SHEETSYNC_GOOGLE_MODEL_SEED"] ?? "") ?? 20_261_122
        let host = try await GoogleTestBed.start("g-model-host")
        var failures = 0
        for i in stride(from: shard, to: cases, by: 2) {
            let seed = first &+ UInt64(i)
            var model = try await GoogleModelCase(seed: seed, sharing: host)
            do {
                try await model.run()
            } catch {
                failures += 1
                Issue.record(
                    "google model case failed — replay with SHEETSYNC_GOOGLE_MODEL_SEED=\(seed) SHEETSYNC_GOOGLE_MODEL_CASES=1: \(error)")
            }
            await model.bed.finish()
            if failures >= 3 { break }
        }
        await host.finish()
    }
}
