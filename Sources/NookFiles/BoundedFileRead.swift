import FoundationEssentials
import Glibc

/// Reads a file whole without trusting what sits at the path: nookd's theme, state and
/// `/proc` entries, the renderer's images, the notification bridge's rules and history all go
/// through here (a path from outside is read only if it is a regular file).
///
/// Guarantees, before a byte is read:
/// - the open never blocks (`O_NONBLOCK`: a FIFO would wait for a writer forever) and never
///   takes a terminal (`O_NOCTTY`); with `followLinks: false` a symbolic link is refused
///   (`O_NOFOLLOW`) where a link cannot be legitimate;
/// - the opened descriptor (not the path, which could be swapped meanwhile) is `fstat`ed: only
///   a regular file is read, and one whose size is over `limit` is refused unread;
/// - at most `limit + 1` bytes are read, so a file that grows after the check is refused too
///   rather than read whole. (`/proc` files report size 0 and are bounded by this alone.)
///
/// ```swift
/// let data = try BoundedFileRead.read("theme.json", limit: 256 * 1024, followLinks: true)
/// // nil: no such file
/// ```
public enum BoundedFileRead {
    /// Why a file was not read.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public enum Reason: Sendable, Equatable {
            /// A FIFO, a directory, a device, a socket: what it is.
            case notRegular(String)
            /// A symbolic link where none may be.
            case link
            /// `size` bytes (from `fstat`, or read past the limit) over `limit`.
            case tooLarge(size: Int64, limit: Int)
            /// `open`, `fstat` or `read` failed with `errno`.
            case system(String, errno: Int32)
        }
        public let path: String
        public let reason: Reason
        /// The limit's name in the docs, for `tooLarge`.
        public var limitName: String?

        /// What the file is, without its path: "not a regular file (a FIFO)", "12 bytes, over
        /// the limit of 10 bytes (maxBytes)".
        public var what: String {
            switch reason {
            case .notRegular(let kind): "not a regular file (\(kind))"
            case .link: "a symbolic link, not followed"
            case .tooLarge(let size, let limit): "\(size) bytes, over the limit of \(limit) bytes" + (limitName.map { " (\($0))" } ?? "")
            case .system(let operation, let code): "unreadable: \(operation) failed: \(String(cString: strerror(code)))"
            }
        }

        public var description: String { "\(path) is \(what)" }
    }

    /// The bytes of `name` (a path, or a name relative to `directory`, a directory
    /// descriptor), at most `limit` of them; nil when there is no such file.
    /// - Parameters:
    ///   - followLinks: false refuses a symbolic link at the last component (`Reason.link`).
    ///   - limitName: how the docs name `limit`, for the error.
    ///   - displayPath: the path errors name (defaults to `name`).
    public static func read(
        _ name: String, relativeTo directory: Int32 = AT_FDCWD, limit: Int, limitName: String? = nil, followLinks: Bool,
        displayPath: String? = nil
    ) throws(Refusal) -> Data? {
        let path = displayPath ?? name
        func refusal(_ reason: Refusal.Reason) -> Refusal { Refusal(path: path, reason: reason, limitName: limitName) }
        var flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        if !followLinks { flags |= O_NOFOLLOW }
        let fd = openat(directory, name, flags)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            // O_NOFOLLOW on a link fails with ELOOP.
            if code == ELOOP, !followLinks { throw refusal(.link) }
            throw refusal(.system("open", errno: code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw refusal(.system("fstat", errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refusal(.notRegular(FileKind.words(info.st_mode))) }
        guard info.st_size <= limit else { throw refusal(.tooLarge(size: Int64(info.st_size), limit: limit)) }
        // Reads in blocks until the end, never keeping more than limit + 1 bytes.
        var data = Data(capacity: Int(info.st_size) + 1)
        let block = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: min(block, limit + 1))
        while data.count <= limit {
            let want = min(buffer.count, limit + 1 - data.count)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, want) }
            if n < 0 {
                if errno == EINTR { continue }
                throw refusal(.system("read", errno: errno))
            }
            if n == 0 { return data }
            data.append(contentsOf: buffer[0..<n])
        }
        throw refusal(.tooLarge(size: Int64(data.count), limit: limit))
    }
}

/// What a file that is not a regular one is, in words, for messages that name what sits at a
/// path ("is a FIFO, not a regular file").
public enum FileKind {
    /// `mode`'s file type (`st_mode`, or `st_mode & S_IFMT`), with its article.
    public static func words(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        case S_IFREG: "a regular file"
        default: "a special file"
        }
    }
}
