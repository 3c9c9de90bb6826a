import Foundation

/// Foundation's `Process.run()` on Linux is not safe to call from several threads at once: two
/// tests launching helpers together crashed the test process inside it (a bad pointer in
/// `memmove`, CI, load 12). Every launch in the tests goes through this one lock.
private let launchLock = NSLock()

extension Process {
    /// `run()`, one launch at a time in this process.
    public func runSerialized() throws {
        launchLock.lock()
        defer { launchLock.unlock() }
        try run()
    }
}
