import CMalloc

/// How nookd keeps glibc's heap small (docs/PERFORMANCE.md, "Memory and wire size, session 6").
///
/// The broker works on one bus thread, so glibc's per-thread arenas only spread the same data
/// over several heaps, each keeping its own free memory. And a state write encodes every
/// module and activity at once: with 256 modules x 4 activities that is megabytes of short-lived
/// JSON values which, once freed, stay in the heap's free lists between the long-lived records.
public enum BrokerHeap {
    /// A state file at least this big leaves enough freed memory behind to be worth giving back.
    static let trimAfterWritesOf = 64 * 1024

    /// One arena for all threads. Call first thing in `main`, before other threads allocate.
    public static func useOneArena() {
        _ = mallopt(M_ARENA_MAX, 1)
    }

    /// Returns the heap's free pages to the kernel (`malloc_trim`); the heap keeps its layout.
    static func giveBackFreePages() {
        _ = malloc_trim(0)
    }
}
