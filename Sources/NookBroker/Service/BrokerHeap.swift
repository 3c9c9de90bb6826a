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

    /// What a plan frees stays in the heap for the next plan. glibc maps an allocation above
    /// its mmap threshold on its own and unmaps it when freed, and gives the heap's top back
    /// once more than its trim threshold is free: a 10,000-node update then faults in (and
    /// the kernel zeroes) about 875 pages on every plan, a third of its time, and by far the
    /// most variable third (docs/PERFORMANCE.md, session 12). Fixed thresholds keep up to
    /// `keptFreeBytes` of freed memory mapped after a plan; the state store's trim after a
    /// large write (`giveBackFreePages`) still returns it all.
    public static func keepPlanningMemory() {
        _ = mallopt(M_MMAP_THRESHOLD, Int32(mappedAllocationsFrom))
        _ = mallopt(M_TRIM_THRESHOLD, Int32(keptFreeBytes))
    }

    /// Allocations this big or bigger get mappings of their own (glibc's ceiling for its own
    /// moving threshold on 64-bit systems): none of a plan's, whatever its size.
    static let mappedAllocationsFrom = 32 * 1024 * 1024
    /// Free memory at the heap's top kept mapped: more than the 10,000-node update frees in a plan.
    static let keptFreeBytes = 8 * 1024 * 1024

    /// Returns the heap's free pages to the kernel (`malloc_trim`); the heap keeps its layout.
    static func giveBackFreePages() {
        _ = malloc_trim(0)
    }
}
