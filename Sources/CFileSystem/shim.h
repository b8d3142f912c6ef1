#ifndef SHEETSYNC_CFILESYSTEM_SHIM_H
#define SHEETSYNC_CFILESYSTEM_SHIM_H
#include <errno.h>
#include <fcntl.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Swift's Glibc module does not expose renameat2 (glibc declares it only under _GNU_SOURCE, and
// only from 2.28 on), so it is called through syscall(2), which every Linux libc has.

/// renameat2(2) with `flags` on paths relative to the current directory. Returns 0, or -1 with
/// errno set; EINVAL, ENOSYS or ENOTSUP mean the file system (or kernel, or platform) cannot do
/// what `flags` ask and the caller must fall back.
static inline int sheetsync_renameat2(const char *from, const char *to, unsigned int flags) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
#else
    (void)from;
    (void)to;
    (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

/// Atomically exchanges the files at `a` and `b` (both must exist, on one file system); the
/// fallback errors of `sheetsync_renameat2`.
static inline int sheetsync_exchange(const char *a, const char *b) {
    return sheetsync_renameat2(a, b, 2 /* RENAME_EXCHANGE */);
}

/// Renames `from` to `to` only when nothing is at `to` (EEXIST otherwise); the fallback errors of
/// `sheetsync_renameat2`.
static inline int sheetsync_rename_noreplace(const char *from, const char *to) {
    return sheetsync_renameat2(from, to, 1 /* RENAME_NOREPLACE */);
}

#endif
