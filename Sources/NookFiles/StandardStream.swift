import Glibc

/// Standard output and standard error, written whole with `write(2)` (retried on a short
/// write or EINTR): what Foundation's `FileHandle.standardError.write` did, without Foundation.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes `text`; a closed or full stream loses it (nothing to report it to).
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(rawValue, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
