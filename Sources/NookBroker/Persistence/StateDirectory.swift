import NookFiles
import FoundationEssentials
import Glibc

/// The state directory, opened and checked: every file nookd reads or writes there is opened
/// relative to this descriptor (`openat`, `renameat`, `unlinkat`), so a path component swapped
/// after the check cannot send a write elsewhere.
///
/// Guarantees:
/// - **Private.** A missing directory is created, with any missing parents, mode 0700.
/// - **Ours alone.** The directory (what the path leads to, checked on the opened descriptor)
///   must be a directory owned by this process's user that neither its group nor others may
///   write; otherwise `open` refuses it (`StateDirectoryError`) and nothing in it is read or
///   written. (In a directory another user can write, that user can plant links at the
///   names nookd writes: in `/tmp/nook-state` a link made nookd overwrite `~/.bashrc`.) A link
///   as the directory's last component is followed only when this user owns the link.
/// - **No links, no clobbering.** Files are written as a new file (`O_CREAT|O_EXCL|O_NOFOLLOW`,
///   after unlinking a stale one of the same name) and renamed into place; `state.json` and the
///   crash-loop marker are read with `O_NOFOLLOW` (`BoundedFileRead`).
final class StateDirectory {
    let url: URL
    /// The directory's descriptor, open for the life of this value.
    let fd: Int32

    private init(url: URL, fd: Int32) {
        self.url = url
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens `url` and checks it (see the type's guarantees).
    /// - Parameter create: create it (and missing parents, 0700) when it does not exist;
    ///   false returns nil for a missing directory.
    static func open(_ url: URL, create: Bool) throws(StateDirectoryError) -> StateDirectory? {
        let path = url.path
        var link = stat()
        if lstat(path, &link) != 0 {
            guard errno == ENOENT else { throw StateDirectoryError(path: path, problem: .system("stat", errno: errno)) }
            guard create else { return nil }
            try makeDirectories(path)
        } else if link.st_mode & S_IFMT == S_IFLNK, link.st_uid != geteuid() {
            throw StateDirectoryError(path: path, problem: .linkOwner(uid: link.st_uid))
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw StateDirectoryError(path: path, problem: code == ENOTDIR ? .notADirectory : .system("open", errno: code))
        }
        let directory = StateDirectory(url: url, fd: fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StateDirectoryError(path: path, problem: .system("fstat", errno: errno)) }
        guard info.st_uid == geteuid() else { throw StateDirectoryError(path: path, problem: .owner(uid: info.st_uid)) }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw StateDirectoryError(path: path, problem: .writableByOthers(mode: info.st_mode & 0o7777))
        }
        return directory
    }

    /// Creates `path` and its missing parents, each 0700 (the XDG base directory rule).
    private static func makeDirectories(_ path: String) throws(StateDirectoryError) {
        var missing: [String] = []
        var current = URL(fileURLWithPath: path)
        var info = stat()
        while current.path != "/", stat(current.path, &info) != 0 {
            missing.append(current.path)
            current = current.deletingLastPathComponent()
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw StateDirectoryError(path: directory, problem: .system("mkdir", errno: errno))
        }
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The bytes of `name`, a link refused, at most `limit`; nil when there is none.
    func read(_ name: String, limit: Int, limitName: String? = nil) throws(BoundedFileRead.Refusal) -> Data? {
        try BoundedFileRead.read(name, relativeTo: fd, limit: limit, limitName: limitName, followLinks: false, displayPath: path(name))
    }

    /// Whether something (a file, a link, anything) is at `name`.
    func contains(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Replaces `name` with `data` atomically: a new temporary file `.<name>.tmp-<pid>` (any
    /// stale one, or a link planted there, unlinked first; created with `O_EXCL|O_NOFOLLOW`,
    /// so it is a new file of ours), `fsync`ed, renamed over `name`, the directory `fsync`ed.
    func writeAtomically(_ data: Data, to name: String) throws(StateStoreError) {
        let temp = ".\(name).tmp-\(getpid())"
        // A leftover of a crashed write of this pid, or a link: gone. (A directory stays, and
        // the open below fails with EEXIST: reported, and retried.)
        unlinkat(fd, temp, 0)
        let file = openat(fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw StateStoreError(operation: "open \(path(temp))", errno: errno) }
        var written = 0
        let result: Int32 = data.withUnsafeBytes { buffer -> Int32 in
            while written < buffer.count {
                let n = write(file, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return fsync(file) == 0 ? 0 : errno
        }
        close(file)
        guard result == 0 else {
            unlinkat(fd, temp, 0)
            throw StateStoreError(operation: "write \(path(temp))", errno: result)
        }
        guard renameat(fd, temp, fd, name) == 0 else {
            let code = errno
            unlinkat(fd, temp, 0)
            throw StateStoreError(operation: "rename to \(path(name))", errno: code)
        }
        // The rename is durable once the directory entry is.
        fsync(fd)
    }

    /// Creates `name` as a new, empty file; false when something is there already.
    func createNew(_ name: String) throws(StateStoreError) -> Bool {
        let file = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            if errno == EEXIST { return false }
            throw StateStoreError(operation: "create \(path(name))", errno: errno)
        }
        close(file)
        return true
    }

    /// Renames `name` to `target` within the directory (a link is moved, not followed).
    func rename(_ name: String, to target: String) throws(StateStoreError) {
        guard renameat(fd, name, fd, target) == 0 else {
            throw StateStoreError(operation: "rename \(path(name)) to \(path(target))", errno: errno)
        }
    }

    func unlink(_ name: String) { unlinkat(fd, name, 0) }
}

/// Why nookd will not use a state directory.
public struct StateDirectoryError: Error, CustomStringConvertible, Sendable {
    public enum Problem: Sendable, Equatable {
        case owner(uid: uid_t)
        case linkOwner(uid: uid_t)
        case writableByOthers(mode: mode_t)
        case notADirectory
        case system(String, errno: Int32)
    }
    public let path: String
    public let problem: Problem

    public var description: String {
        let why = "another user could plant links in it; use a directory of your own (the default is $XDG_STATE_HOME/nook)"
        switch problem {
        case .owner(let uid):
            return "the state directory \(path) is owned by uid \(uid), not by this user (uid \(geteuid())): \(why)"
        case .linkOwner(let uid):
            return "the state directory \(path) is a symbolic link owned by uid \(uid), not by this user (uid \(geteuid())): \(why)"
        case .writableByOthers(let mode):
            return "the state directory \(path) is writable by other users (mode \(String(mode, radix: 8))): \(why), or chmod go-w it"
        case .notADirectory:
            return "the state directory \(path) is not a directory"
        case .system(let operation, let code):
            return "the state directory \(path): \(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}
