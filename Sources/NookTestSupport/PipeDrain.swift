import Foundation

/// Reads a pipe to its end on a thread of its own. A blocking read on the cooperative pool
/// (two threads on a two-core machine) can hold every thread of it while the process being
/// read waits for a test task that then never runs: the whole suite stalls.
public enum PipeDrain {
    public static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            let reader = Thread { continuation.resume(returning: handle.readDataToEndOfFile()) }
            reader.start()
        }
    }
}
