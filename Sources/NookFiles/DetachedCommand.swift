import FoundationEssentials
import Glibc

/// Starts a helper program (`xdg-open`, `canberra-gtk-play`, nookctl's own finish waiter)
/// and does not wait for it: a sound or a browser never blocks the caller.
///
/// The child gets `/dev/null` for its standard streams, a session of its own, and none of the
/// caller's other descriptors (a bus socket or a pipe a parent watches must close when the
/// caller exits, not when the helper does). A thread of the caller reaps it when it exits, so
/// no zombie is left. Spawned with `posix_spawn` directly: Foundation's `Process` would pull
/// the whole of Foundation and ICU into every binary (docs/PERFORMANCE.md, "Footprint").
public enum DetachedCommand {
    /// The path of `command` in `PATH` (the search stops at the first executable), nil when
    /// it is not installed.
    public static func path(of command: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let path = "\(directory)/\(command)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// Runs the program at `path` with `arguments` (`arguments[0]` is its name; no shell reads
    /// any of them) without waiting for it.
    /// - Returns: the child's pid, or why it did not start.
    public static func spawn(_ path: String, _ arguments: [String]) -> Result<pid_t, SpawnFailure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // glibc's POSIX_SPAWN_SETSID (0x80, since 2.26), which Swift does not import.
        posix_spawnattr_setflags(&attributes, 0x80)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for fd in openDescriptorsAboveStandardError() { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { return .failure(SpawnFailure(path: path, errno: result)) }
        reap(pid)
        return .success(pid)
    }

    /// Runs `command`, found in `PATH`, with `arguments` and does not wait for it.
    /// - Returns: why it did not start, nil when it did.
    @discardableResult
    public static func run(_ command: String, _ arguments: [String]) -> String? {
        guard let path = path(of: command) else { return "\(command) is not installed" }
        switch spawn(path, [command] + arguments) {
        case .success: return nil
        case .failure(let failure): return failure.description
        }
    }

    /// Why a program did not start: `posix_spawn`'s error.
    public struct SpawnFailure: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot start \(path): \(String(cString: strerror(errno)))" }
    }

    /// The caller's open descriptors above standard error, from /proc/self/fd (the listing's
    /// own descriptor, closed once it is read, is left out).
    public static func openDescriptorsAboveStandardError() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        let listing = dirfd(directory)
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if let fd = Int32(name), fd > 2, fd != listing { descriptors.append(fd) }
        }
        closedir(directory)
        return descriptors.filter { fcntl($0, F_GETFD) != -1 }.sorted()
    }

    /// Waits for `pid` on a thread of its own, so the exited child does not linger as a zombie.
    private static func reap(_ pid: pid_t) {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let argument = UnsafeMutableRawPointer(bitPattern: Int(pid))
        _ = pthread_create(&thread, &attributes, { argument in
            let pid = pid_t(Int(bitPattern: argument))
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return nil
        }, argument)
    }
}
