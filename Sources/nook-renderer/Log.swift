import Glibc
import NookBus

/// Lines on stderr, written at once (no buffering): tests wait on them.
enum Log {
    nonisolated(unsafe) static var verbose = false
    /// `--log-settled`: the `settled` lines without the rest of `--verbose` (a benchmark of the
    /// renderer's CPU would otherwise count the per-frame lines it costs to write).
    nonisolated(unsafe) static var settledLines = false
    // nonisolated(unsafe): set once by main before any thread starts, read-only afterwards.

    /// Under systemd with stderr on the journal: `<6>` (info) before each line, the journal's
    /// priority (sd-daemon(3)); the journal adds the program's name itself.
    static let journal = JournalStream.isStderr

    static func info(_ message: String) { raw(journal ? "<6>\(message)\n" : "nook-renderer: \(message)\n") }

    static func debug(_ message: @autoclosure () -> String) {
        if verbose { info(message()) }
    }

    /// A transition's `settled` line: with `--verbose` or `--log-settled`.
    static func settled(_ message: @autoclosure () -> String) {
        if verbose || settledLines { info(message()) }
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
