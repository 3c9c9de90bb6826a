import Foundation
import Synchronization

/// Who headless sway and the Wayland clients (the renderer, grim, swaymsg, the virtual pointer)
/// run as. sway refuses to run as root, which the tests are in CI's container: there they run
/// as an unprivileged system user, `nook-wayland-test`, created here when it is missing. A test
/// process that is not root runs them as itself.
public struct WaylandTestUser: Sendable {
    public static let accountName = "nook-wayland-test"

    public let uid: uid_t
    public let gid: gid_t
    /// False when the tests already run unprivileged: no user switch.
    public let switches: Bool

    /// The user, created once per process (`useradd --system`) when it runs as root, able to
    /// run `executables` (by default the package's nook-renderer) and the libraries they load
    /// from outside the system's directories.
    public static func shared(reaching executables: [String]? = nil) async throws -> WaylandTestUser {
        let user = try await sharedUser.value
        guard user.switches else { return user }
        for executable in try executables ?? [PackageProcess.executable("nook-renderer").path] {
            guard reached.withLock({ $0.insert(executable).inserted }) else { continue }
            for path in try await [executable] + privateLibraries(of: executable) { try user.makeReachable(path) }
        }
        return user
    }

    /// The executables made reachable so far (once each per process).
    private static let reached = Mutex<Set<String>>([])

    private static let sharedUser = Task<WaylandTestUser, any Error> {
        guard getuid() == 0 else { return WaylandTestUser(uid: getuid(), gid: getgid(), switches: false) }
        if getpwnam(accountName) == nil {
            // No home and no login shell: it only runs the test's compositor and clients.
            let made = try await Tools.run("useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent",
                                                       "--shell", "/usr/sbin/nologin", accountName])
            // Another test process may have created it at the same time: only its absence is an error.
            guard made.status == 0 || getpwnam(accountName) != nil else {
                throw TestSupportError("cannot create the Wayland test user \(accountName) (useradd exited \(made.status): \(made.stderr))")
            }
        }
        guard let entry = getpwnam(accountName) else { throw TestSupportError("the Wayland test user \(accountName) does not exist") }
        return WaylandTestUser(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, switches: true)
    }

    /// `executable` with `arguments` as this user, with exactly `environment` (`setpriv
    /// --reset-env` then `env`, both of which exec, so the pid is the program's own).
    ///
    /// A test runner's threads block most signals, and a child inherits that mask: sway, which
    /// never unblocks SIGTERM, then ignores `stop()` for good. So the command first clears the
    /// mask (python3 sets it, then execs: still one pid).
    public func command(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (executable: String, arguments: [String]) {
        let program = try Tools.path(of: executable)
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let env = ["/usr/bin/env", "-i"] + assignments + [program] + arguments
        let switched = switches
            ? [try Tools.path(of: "setpriv"), "--reuid=\(uid)", "--regid=\(gid)", "--init-groups", "--reset-env"] + env
            : env
        let unblock = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
        return (try Tools.path(of: "python3"), ["-c", unblock] + switched)
    }

    /// A directory this user owns with mode 0700 (sway's `XDG_RUNTIME_DIR`, the clients' HOME).
    public func makePrivateDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard chown(url.path, uid, gid) == 0, chmod(url.path, 0o700) == 0 else {
            throw TestSupportError("cannot give \(url.path) to uid \(uid) (errno \(errno))")
        }
    }

    /// Lets this user run `path`: adds o+x to each directory above it (traversal only, no
    /// listing) and o+rx to the file. A checkout under a private home (`/root`, mode 0700)
    /// would otherwise keep the renderer, built there, from the user that runs it.
    private func makeReachable(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw TestSupportError("\(path) does not exist") }
        if status.st_mode & 0o005 != 0o005, chmod(path, status.st_mode & 0o7777 | 0o005) != 0 {
            throw TestSupportError("cannot let the Wayland test user read \(path) (errno \(errno))")
        }
        var directory = (path as NSString).deletingLastPathComponent
        while directory != "/" && !directory.isEmpty {
            guard stat(directory, &status) == 0 else { break }
            if status.st_mode & 0o001 == 0, chmod(directory, status.st_mode & 0o7777 | 0o001) != 0 {
                throw TestSupportError("cannot let the Wayland test user through \(directory) (errno \(errno))")
            }
            directory = (directory as NSString).deletingLastPathComponent
        }
    }

    /// The shared libraries `executable` loads that lie outside the system's own directories
    /// (a debug build's Swift runtime, from the toolchain), as `ldd` resolves them.
    private static func privateLibraries(of executable: String) async throws -> [String] {
        let result = try await Tools.run("ldd", [executable])
        guard result.status == 0 else { throw TestSupportError("ldd \(executable) failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let arrow = line.range(of: "=> /") else { return nil }
            let path = String(line[line.index(before: arrow.upperBound)...].split(separator: " ").first ?? "")
            return ["/lib/", "/usr/lib/", "/lib64/"].contains { path.hasPrefix($0) } ? nil : path
        }
    }
}
