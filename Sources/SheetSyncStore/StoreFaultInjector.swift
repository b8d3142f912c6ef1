/// A test hook for the store's file system, so the handling of a full disk can be tested
/// without filling one.
public struct StoreFaultInjector: Sendable {
    /// How many pages the store may still grow by before the disk is full (SQLite's
    /// `max_page_count`): the write that needs one more fails with SQLITE_FULL, as on a full disk.
    public var sparePages: Int?

    public init(sparePages: Int?) {
        self.sparePages = sparePages
    }

    /// The store cannot grow by a single page.
    public static let fullDisk = StoreFaultInjector(sparePages: 0)

    /// The disk fills once the store has grown by `pages` pages.
    public static func diskFull(afterPages pages: Int) -> StoreFaultInjector { StoreFaultInjector(sparePages: pages) }
}
