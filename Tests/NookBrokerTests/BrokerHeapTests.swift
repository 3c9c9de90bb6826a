import Glibc
import Testing
@testable import NookBroker

/// nookd's heap between plans (`BrokerHeap.keepPlanningMemory`): what a plan frees is the next
/// plan's memory, not pages handed back to the kernel and faulted in (and zeroed) again.
struct BrokerHeapTests {
    /// A plan's worth of freed buffers: the 10,000-node update frees about 3.5 MiB a plan, in
    /// arrays of up to a few hundred KiB (above glibc's first mmap threshold, 128 KiB). With
    /// glibc's own thresholds each round faults in all 1,152 pages of these 4.5 MiB again.
    /// Not under `make sanitize`: AddressSanitizer replaces glibc's malloc, whose thresholds
    /// this measures.
    @Test(.disabled(if: getenv("ASAN_OPTIONS") != nil, "AddressSanitizer's allocator replaces glibc malloc"))
    func aPlansFreedMemoryIsReusedNotFaultedInAgain() {
        BrokerHeap.keepPlanningMemory()
        let bufferSize = 384 * 1024
        func planRound() -> Int {
            let before = minorFaultsOfThisThread()
            let buffers = (0..<12).map { _ in malloc(bufferSize)! }
            for buffer in buffers { memset(buffer, 1, bufferSize) }
            for buffer in buffers { free(buffer) }
            return minorFaultsOfThisThread() - before
        }
        _ = planRound()
        _ = planRound()
        let again = (0..<4).map { _ in planRound() }
        #expect(again.allSatisfy { $0 < 100 }, "pages faulted in again per round (of 1,152): \(again)")
    }

    /// Minor page faults of the calling thread (other tests run on other threads).
    private func minorFaultsOfThisThread() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (Linux, 1) is a GNU extension Glibc does not import.
        getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }
}
