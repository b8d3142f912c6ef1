import CSQLiteConfig

/// SQLite settings that belong to a whole process, not to one connection.
///
/// SQLite keeps memory statistics by default, and with them every allocation and free inside SQLite
/// takes one global mutex: about 5 % of the CPU of a 100k-row first pull, for numbers sheetsync never
/// reads (it sets no soft heap limit). The setting can only change before SQLite is initialised and
/// while no other thread uses SQLite, so only the command-line tool applies it, first thing, as it
/// does `ExitArena.enable()`; a library user and the test suite keep SQLite's defaults.
public enum SQLiteProcessSettings {
    /// Turns SQLite's memory statistics off. True when applied; false when SQLite was already
    /// initialised in this process (nothing changes then, and everything works as before).
    @discardableResult
    public static func apply() -> Bool {
        sheetsync_sqlite_memstatus_off() == 0
    }
}
