import Testing

@testable import SheetSync

/// The library frees what a run used unless the command-line tool turned the exit arena on: a process
/// that runs many commands (a test suite, an app using the library) must not keep every plan.
@Suite struct ExitArenaTests {
    final class Payload: Sendable {}

    @Test func offByDefaultSoAKeptValueIsFreed() {
        weak var watched: Payload?
        do {
            let payload = Payload()
            watched = payload
            ExitArena.keep(payload)
        }
        #expect(watched == nil)
    }

    /// Turned on, a value stays until the next run releases it: two runs in one command never hold
    /// both runs' rows at once.
    @Test func whenOnAValueStaysUntilTheNextRunReleasesIt() {
        var holding = ExitArena.Holding(enabled: true)
        weak var watched: Payload?
        do {
            let payload = Payload()
            watched = payload
            holding.keep(payload)
        }
        #expect(watched != nil)
        _ = holding.release()
        #expect(watched == nil)
        #expect(holding.kept.isEmpty)
    }
}
