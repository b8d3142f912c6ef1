/// A test hook for the store's file system, so the handling of a full disk can be tested
/// without filling one.
public struct StoreFaultInjector: Sendable {
    /// The disk is full: the store file cannot grow beyond its size when opened, and SQLite fails
    /// the write that needs one more page with SQLITE_FULL, exactly as on a full disk.
    public var diskFull: Bool

    public init(diskFull: Bool) {
        self.diskFull = diskFull
    }

    /// The store cannot grow by a single page.
    public static let fullDisk = StoreFaultInjector(diskFull: true)
}
