#ifndef ASSETFS_CSQLITE_SHIM_H
#define ASSETFS_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro: Swift's temporary pointers need SQLite to copy. */
static inline int csqlite_bind_blob(sqlite3_stmt *s, int i, const void *p, int n) {
    return sqlite3_bind_blob(s, i, p, n, SQLITE_TRANSIENT);
}
static inline int csqlite_bind_text(sqlite3_stmt *s, int i, const char *p) {
    return sqlite3_bind_text(s, i, p, -1, SQLITE_TRANSIENT);
}
/* sqlite3_config is variadic. Memory statistics take a global mutex on every allocation; nothing
   here reads them. Only has effect before SQLite initializes (the first open). */
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
/* sqlite3_db_config is variadic too. */
static inline int csqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
