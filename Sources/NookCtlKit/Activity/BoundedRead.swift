import FoundationEssentials
import Glibc

/// Reads a file, or standard input, to its end but never more than a limit: `--view-json -`
/// given `/dev/zero` stops after the limit with a clear error instead of growing without end.
enum BoundedRead {
    enum Failure: Error, Equatable {
        /// More than the limit; what was read is dropped.
        case tooLarge
        /// It could not be opened or read: why (strerror).
        case unreadable(String)
    }

    /// The bytes of `path` (nil: standard input), at most `limit` of them.
    static func read(_ path: String?, limit: Int) -> Result<[UInt8], Failure> {
        let fd: Int32
        if let path {
            // A pipe (`--view-json <(make-view)`) is fine here: nookctl waits for its writer.
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        } else {
            fd = STDIN_FILENO
        }
        defer { if path != nil { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if got == 0 { return .success(bytes) }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            guard bytes.count + got <= limit else { return .failure(.tooLarge) }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }
}
