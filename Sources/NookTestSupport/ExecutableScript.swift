import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes the stand-in scripts tests put first on a `PATH` (`xdg-open`, `canberra-gtk-play`).
///
/// Not `String.write(to:atomically:)`: Foundation opens the file without `O_CLOEXEC`, so a
/// process another test starts at that moment can inherit the descriptor open for writing and
/// keep it for its whole life, and every later exec of the script fails with ETXTBSY ("Text
/// file busy"): seen in CI, the bridge's `xdg-open` refused 10 s after the stub was written.
public enum ExecutableScript {
    public static func write(_ text: String, to url: URL) throws {
        try write(text, toPath: url.path)
    }

    public static func write(_ text: String, toPath path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw TestSupportError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw TestSupportError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            written += result
        }
        // An existing file keeps its mode through O_CREAT: make it executable either way.
        guard fchmod(descriptor, 0o755) == 0 else { throw TestSupportError("cannot chmod \(path): \(String(cString: strerror(errno)))") }
    }
}
