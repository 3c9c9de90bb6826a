import Glibc

/// Lines on stderr, written at once (no buffering): tests wait on them.
enum Log {
    nonisolated(unsafe) static var verbose = false
    // nonisolated(unsafe): set once by main before any thread starts, read-only afterwards.

    static func info(_ message: String) { raw("nook-renderer: \(message)\n") }

    static func debug(_ message: @autoclosure () -> String) {
        if verbose { info(message()) }
    }

    /// One `write(2)` per line, so lines from the bus and GTK threads never interleave.
    static func raw(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}
