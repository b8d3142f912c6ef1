#ifndef SHEETSYNC_CSQLITECONFIG_SHIM_H
#define SHEETSYNC_CSQLITECONFIG_SHIM_H
/* sqlite3_config is variadic, which Swift cannot call: these wrappers make the one setting
 * sheetsync changes callable (SQLiteProcessSettings.swift). */
#include <sqlite3.h>

/* Turns off SQLite's memory statistics. With them on (Debian's default), every allocation and free
 * inside SQLite takes a global mutex: about 5 % of a 100k-row first pull. Valid only before SQLite
 * is initialised (the first open); answers SQLITE_MISUSE, changing nothing, after. */
static inline int sheetsync_sqlite_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
