import Foundation
import NookBus
import NookTestSupport
import Testing
@testable import NookCtlKit

/// `make install` and `make uninstall` on the debug build `swift build --build-tests` made
/// (`make install-files`, the installing half of `make install`; a static release build takes
/// minutes, see docs/install.md for what was measured by hand), into scratch directories:
/// the layout, the paths written into the units, systemd's and the desktop spec's validators,
/// and D-Bus activation of the installed nookd on a private bus.
@Suite struct InstallTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let programs = ["nookd", "nookctl", "nook-renderer", "nook-mpris", "nook-notifications", "nook-system"]
    /// The programs installed as links to the multi-call `nook-programs`.
    static let linked = ["nookd", "nook-mpris", "nook-notifications", "nook-system"]

    /// Every file `make install PREFIX=/usr` puts under DESTDIR, the manifest included.
    static let files = [
        "/usr/bin/nookd", "/usr/bin/nookctl", "/usr/bin/nook-renderer", "/usr/bin/nook-mpris", "/usr/bin/nook-notifications", "/usr/bin/nook-system",
        "/usr/bin/nook-programs",
        "/usr/lib/systemd/user/nookd.service", "/usr/lib/systemd/user/nook-renderer.service",
        "/usr/lib/systemd/user/nook-mpris.service", "/usr/lib/systemd/user/nook-notifications.service", "/usr/lib/systemd/user/nook-system.service",
        "/usr/share/dbus-1/services/org.nook.Nook1.service", "/usr/share/dbus-1/interfaces/org.nook.Nook1.xml",
        "/usr/share/dbus-1/interfaces/org.nook.Notifications1.xml",
        "/etc/xdg/autostart/nook-renderer.desktop",
        "/usr/share/man/man1/nookd.1.gz", "/usr/share/man/man1/nookctl.1.gz",
        "/usr/share/man/man1/nook-renderer.1.gz", "/usr/share/man/man1/nook-mpris.1.gz",
        "/usr/share/man/man1/nook-notifications.1.gz", "/usr/share/man/man1/nook-system.1.gz", "/usr/share/man/man5/nook-notifications-rules.5.gz",
        "/usr/share/bash-completion/completions/nookctl", "/usr/share/zsh/site-functions/_nookctl",
        "/usr/share/fish/vendor_completions.d/nookctl.fish",
        "/usr/share/nook/install-manifest",
    ]

    /// The directory of the debug binaries the tests run against.
    static func builtBinaries() throws -> String {
        try PackageProcess.executable("nookd").deletingLastPathComponent().path
    }

    /// This environment without the outer make's variables (a `make test` parent's jobserver
    /// descriptors mean nothing to the make a test starts), plus `extra`.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"] { environment[name] = nil }
        return environment.merging(extra) { $1 }
    }

    /// `make -C CHECKOUT TARGET VARIABLES...`.
    static func make(_ target: String, _ variables: [String: String]) async throws -> Tools.Result {
        try await Tools.run("make", ["-s", "-C", checkout.path, target] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
                            environment: environment())
    }

    static func install(_ variables: [String: String]) async throws {
        let result = try await make("install-files", ["BIN": try builtBinaries()].merging(variables) { $1 })
        guard result.status == 0 else { throw TestSupportError("make install-files failed (\(result.status)):\n\(result.stdout)\(result.stderr)") }
    }

    /// Every path under `root`, relative to it, directories ending in '/' (a link by its own name).
    static func tree(_ root: URL) -> Set<String> {
        var paths: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            let path = url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
            let relative = String(path.dropFirst(root.resolvingSymlinksInPath().path.count))
            let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            paths.insert(isDirectory ? relative + "/" : relative)
        }
        return paths
    }

    static func text(_ root: URL, _ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(String(path.dropFirst())), encoding: .utf8)
    }

    static func gunzip(_ file: URL) async throws -> String {
        let result = try await Tools.run("gzip", ["-dc", file.path])
        guard result.status == 0 else { throw TestSupportError("gzip -dc \(file.path): \(result.stderr)") }
        return result.stdout
    }

    @Test func installLaysOutEveryFileWithItsRealPathsAndUninstallRemovesThemAll() async throws {
        let scratch = try Scratch("nook-install")
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("root")
        try await Self.install(["DESTDIR": root.path, "PREFIX": "/usr"])

        let tree = Self.tree(root)
        #expect(tree.filter { !$0.hasSuffix("/") } == Set(Self.files))
        // The manifest lists every file and every directory the install created (here all of
        // them: DESTDIR started empty), and nothing else.
        let manifest = try Self.text(root, "/usr/share/nook/install-manifest").split(separator: "\n").map(String.init)
        #expect(Set(manifest) == tree.subtracting(["/usr/share/nook/install-manifest"]))
        for program in Self.programs {
            #expect(FileManager.default.isExecutableFile(atPath: root.path + "/usr/bin/" + program), "\(program)")
        }
        // nookd and the bridges are one binary, under their own names (relative links, so a
        // DESTDIR tree can be moved).
        for program in Self.linked {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: root.path + "/usr/bin/" + program)) == "nook-programs", "\(program)")
        }

        let nookd = try Self.text(root, "/usr/lib/systemd/user/nookd.service")
        for line in ["Type=notify", "WatchdogSec=30s", "BusName=org.nook.Nook1", "ExecStart=/usr/bin/nookd",
                     "ExecReload=/bin/kill -HUP $MAINPID", "WantedBy=graphical-session.target"] {
            #expect(nookd.split(separator: "\n").contains(Substring(line)), "nookd.service lacks \(line)")
        }
        for program in ["nook-renderer", "nook-mpris", "nook-notifications", "nook-system"] {
            let unit = try Self.text(root, "/usr/lib/systemd/user/\(program).service")
            for line in ["PartOf=graphical-session.target", "After=graphical-session.target", "WantedBy=graphical-session.target",
                         "ExecStart=/usr/bin/\(program)"] {
                #expect(unit.split(separator: "\n").contains(Substring(line)), "\(program).service lacks \(line)")
            }
        }
        let activation = try Self.text(root, "/usr/share/dbus-1/services/org.nook.Nook1.service")
        for line in ["[D-BUS Service]", "Name=org.nook.Nook1", "Exec=/usr/bin/nookd", "SystemdService=nookd.service"] {
            #expect(activation.split(separator: "\n").contains(Substring(line)), "the activation file lacks \(line)")
        }
        let desktop = try Self.text(root, "/etc/xdg/autostart/nook-renderer.desktop")
        for line in ["Exec=/usr/bin/nook-renderer", "TryExec=/usr/bin/nook-renderer", "X-systemd-skip=true"] {
            #expect(desktop.split(separator: "\n").contains(Substring(line)), "the autostart entry lacks \(line)")
        }
        for path in Self.files where !path.hasPrefix("/usr/bin/") && !path.hasSuffix(".gz") {
            let content = try Self.text(root, path)
            #expect(content.range(of: "@[A-Z]+@", options: .regularExpression) == nil, "\(path) has a placeholder left")
            #expect(!content.contains("/usr/local"), "\(path) names /usr/local")
        }

        // What nookctl generates is what was installed: the man page and the completions
        // come from the verb table at install time.
        let version = try #require(try await Tools.run(root.path + "/usr/bin/nookctl", ["--version"]).stdout.split(separator: " ").dropFirst().first)
        #expect(try await Self.gunzip(root.appendingPathComponent("usr/share/man/man1/nookctl.1.gz")) == ManPage.nookctl(version: String(version)))
        #expect(try Self.text(root, "/usr/share/bash-completion/completions/nookctl") == Completions.bash)
        #expect(try Self.text(root, "/usr/share/zsh/site-functions/_nookctl") == Completions.zsh)
        #expect(try Self.text(root, "/usr/share/fish/vendor_completions.d/nookctl.fish") == Completions.fish)
        for page in ["nookd", "nook-renderer", "nook-mpris", "nook-notifications", "nook-system"] {
            let text = try await Self.gunzip(root.appendingPathComponent("usr/share/man/man1/\(page).1.gz"))
            #expect(text.contains("\"Nook \(version)\""), "\(page).1 does not carry the version")
        }
        let rules = try await Self.gunzip(root.appendingPathComponent("usr/share/man/man5/nook-notifications-rules.5.gz"))
        #expect(rules.contains("\"Nook \(version)\"") && rules.contains(".TH NOOK\\-NOTIFICATIONS\\-RULES 5"), "nook-notifications-rules.5")

        let uninstall = try await Self.make("uninstall", ["DESTDIR": root.path, "PREFIX": "/usr"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(Self.tree(root).isEmpty, "left behind: \(Self.tree(root).sorted())")
    }

    @Test func uninstallLeavesWhatWasThereBefore() async throws {
        let scratch = try Scratch("nook-uninstall")
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("root")
        // Someone else's completion in a directory the install also uses.
        let other = root.appendingPathComponent("usr/share/bash-completion/completions/other")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("complete -F _other other\n".utf8).write(to: other)
        try await Self.install(["DESTDIR": root.path, "PREFIX": "/usr"])
        let uninstall = try await Self.make("uninstall", ["DESTDIR": root.path, "PREFIX": "/usr"])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(Self.tree(root) == ["/usr/", "/usr/share/", "/usr/share/bash-completion/", "/usr/share/bash-completion/completions/",
                                     "/usr/share/bash-completion/completions/other"])
        let again = try await Self.make("uninstall", ["DESTDIR": root.path, "PREFIX": "/usr"])
        #expect(again.status != 0 && again.stderr.contains("nothing was installed there"), "\(again.stderr)")
    }

    /// `make install` (release) refuses binaries that load libswiftCore.so; the debug build does.
    @Test func installRefusesBinariesThatLoadTheSwiftRuntime() async throws {
        let scratch = try Scratch("nook-install-static")
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("root")
        let result = try await Self.make("install-files", ["BIN": try Self.builtBinaries(), "DESTDIR": root.path, "PREFIX": "/usr", "REQUIRE_STATIC": "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("loads the Swift runtime as shared libraries") && result.stderr.contains("libswiftCore"), "\(result.stderr)")
        #expect(Self.tree(root).isEmpty, "installed before refusing: \(Self.tree(root).sorted())")
    }

    /// `RUNTIME=private` (what `make install` does): the Swift runtime the programs load is
    /// copied once into PREFIX/lib/nook, every program's RUNPATH names that directory alone,
    /// and the installed programs run with the toolchain hidden (a mount namespace with an
    /// empty directory over it), which the built ones cannot.
    @Test func aPrivateRuntimeRunsWithoutTheToolchain() async throws {
        let scratch = try Scratch("nook-install-private")
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("root")
        try await Self.install(["DESTDIR": root.path, "PREFIX": "/usr", "RUNTIME": "private"])
        let runtime = Self.tree(root).filter { $0.hasPrefix("/usr/lib/nook/") }
        #expect(runtime.contains("/usr/lib/nook/libswiftCore.so") && runtime.contains("/usr/lib/nook/libFoundationEssentials.so"), "\(runtime.sorted())")
        #expect(!runtime.contains { $0.contains("FoundationICU") || $0.hasSuffix("/libFoundation.so") }, "a program still loads Foundation: \(runtime.sorted())")
        let manifest = try Self.text(root, "/usr/share/nook/install-manifest")
        #expect(manifest.contains("/usr/lib/nook/libswiftCore.so"), "uninstall would leave the runtime behind")
        let toolchain = URL(fileURLWithPath: try PackageProcess.executable("nookd").path).resolvingSymlinksInPath()
        let swiftCore = try await Tools.run("ldd", [toolchain.path])
        guard let line = swiftCore.stdout.split(separator: "\n").first(where: { $0.contains("libswiftCore.so") }),
              let path = line.split(separator: " ").first(where: { $0.hasPrefix("/") }) else {
            Issue.record("the debug nookd does not load libswiftCore.so: \(swiftCore.stdout)")
            return
        }
        // The toolchain's runtime directory (usr/lib/swift/linux), hidden below.
        let hidden = URL(fileURLWithPath: String(path)).deletingLastPathComponent().path
        let empty = scratch.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        for program in ["nookd", "nookctl", "nook-renderer", "nook-mpris", "nook-notifications", "nook-system"] {
            let installed = root.path + "/usr/bin/" + program
            let run = try await Tools.run("unshare", ["-m", "sh", "-c", "mount --bind \"$0\" \"$1\" && exec \"$2\" --version", empty.path, hidden, installed])
            if run.stderr.contains("unshare failed") || run.stderr.contains("Operation not permitted") {
                // No mount namespaces here (not root): the RUNPATH alone is checked.
                let dynamic = try await Tools.run("readelf", ["-d", installed])
                #expect(dynamic.stdout.contains("[$ORIGIN/../lib/nook]"), "\(program): \(dynamic.stdout)")
                continue
            }
            #expect(run.status == 0 && run.stdout.hasPrefix(program + " "), "\(program) without the toolchain: \(run.stdout)\(run.stderr)")
        }
        let built = try await Tools.run("unshare", ["-m", "sh", "-c", "mount --bind \"$0\" \"$1\" && exec \"$2\" --version", empty.path, hidden, toolchain.path])
        if !built.stderr.contains("unshare failed") && !built.stderr.contains("Operation not permitted") {
            #expect(built.status != 0, "the hidden toolchain was not hidden: the built nookd ran")
        }
    }

    @Test func unitsPassSystemdAnalyzeVerifyAndTheAutostartEntryPassesDesktopFileValidate() async throws {
        let scratch = try Scratch("nook-install-verify")
        defer { scratch.remove() }
        // A real prefix, not DESTDIR: systemd-analyze checks that ExecStart's program exists
        // (systemd 252 cannot --root a user unit), and finds Documentation=man: pages on MANPATH.
        let prefix = scratch.url.appendingPathComponent("prefix")
        try await Self.install(["PREFIX": prefix.path])
        let runtime = scratch.url.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let units = ["nookd", "nook-renderer", "nook-mpris", "nook-notifications", "nook-system"].map { prefix.path + "/lib/systemd/user/\($0).service" }
        let verify = try await Tools.run(
            "systemd-analyze", ["verify", "--user"] + units,
            environment: Self.environment(["XDG_RUNTIME_DIR": runtime.path, "MANPATH": prefix.path + "/share/man"]))
        // verify exits 0 on unknown keys and bad values, only warning: its output must be empty.
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "\(verify.stdout)\(verify.stderr)")
        #expect(try Self.text(prefix, "/lib/systemd/user/nookd.service").contains("ExecStart=\(prefix.path)/bin/nookd"))

        // Outside /usr and /usr/local the autostart entry goes under PREFIX/etc.
        let desktop = prefix.path + "/etc/xdg/autostart/nook-renderer.desktop"
        let validate = try await Tools.run("desktop-file-validate", [desktop])
        #expect(validate.status == 0 && validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate.stdout)\(validate.stderr)")
    }

    @Test func everyInstalledProgramPrintsTheSameVersion() async throws {
        let scratch = try Scratch("nook-install-version")
        defer { scratch.remove() }
        let prefix = scratch.url.appendingPathComponent("prefix")
        try await Self.install(["PREFIX": prefix.path])
        var versions: [String: String] = [:]
        for program in Self.programs {
            let result = try await Tools.run(prefix.path + "/bin/" + program, ["--version"])
            #expect(result.status == 0, "\(program): \(result.stderr)")
            let line = result.stdout.trimmingCharacters(in: .newlines)
            #expect(line.hasPrefix(program + " "), "\(program) printed '\(line)'")
            versions[program] = String(line.dropFirst(program.count + 1))
        }
        #expect(Set(versions.values).count == 1, "\(versions)")
        #expect(versions["nookctl"]?.range(of: #"^[0-9]+(\.[0-9]+)+ \(contract org\.nook\.Nook1 version [0-9]+\)$"#, options: .regularExpression) != nil,
                "\(versions)")
    }

    @Test func nookMprisAnswersHelpWithoutABusAndRefusesUnknownFlags() async throws {
        let program = try PackageProcess.executable("nook-mpris").path
        // A bus address that cannot be reached: connecting would fail with status 1.
        let noBus = Self.environment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/nook-test-bus"])
        let help = try await Tools.run(program, ["--help"], environment: noBus)
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: nook-mpris") && help.stdout.contains("--player NAME"), "\(help.stdout)\(help.stderr)")
        let unknown = try await Tools.run(program, ["--shuffle"], environment: noBus)
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("nook-mpris: unknown option '--shuffle'\nusage:"), "\(unknown.stderr)")
        let missing = try await Tools.run(program, ["--player"], environment: noBus)
        #expect(missing.status == 2 && missing.stderr.contains("option '--player' needs a value (NAME)"), "\(missing.stderr)")
        let both = try await Tools.run(program, ["--simulate", "--player", "mpv"], environment: noBus)
        #expect(both.status == 2, "\(both.stderr)")
    }

    /// The session bus starts the installed nookd from the installed activation file on the
    /// first call: here a private dbus-daemon whose only service directory is the install's.
    @Test func theBusStartsTheInstalledNookdOnFirstUse() async throws {
        let scratch = try Scratch("nook-install-activation")
        defer { scratch.remove() }
        let prefix = scratch.url.appendingPathComponent("prefix")
        try await Self.install(["PREFIX": prefix.path])
        let bus = try PrivateBus(
            serviceDirectories: [prefix.appendingPathComponent("share/dbus-1/services")],
            environment: ["XDG_STATE_HOME": scratch.url.appendingPathComponent("state").path,
                          "XDG_CONFIG_HOME": scratch.url.appendingPathComponent("config").path])
        defer { bus.stop() }

        let status = try await Tools.run(prefix.path + "/bin/nookctl", ["--address", bus.address, "status"])
        #expect(status.status == 0 && status.stdout.hasPrefix("presentation"), "\(status.stdout)\(status.stderr)")

        let connection = try await BusConnection.connect(to: .address(bus.address), description: "install-test")
        let reply = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [.string("org.nook.Nook1")], timeout: .seconds(20))
        guard case .uint32(let value)? = reply.first else {
            Issue.record("GetConnectionUnixProcessID answered \(reply)")
            await connection.close()
            return
        }
        let pid = pid_t(value)
        // The one the activation file names, from the install, not the build tree.
        let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(exe == prefix.path + "/bin/nook-programs", "pid \(pid) runs \(exe ?? "?")")
        let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?.split(separator: "\0").first.map(String.init)
        #expect(command == prefix.path + "/bin/nookd", "pid \(pid) was started as \(command ?? "?")")

        // End it by its pid; it leaves the bus and exits (the daemon reaps it).
        kill(pid, SIGTERM)
        #expect(try await eventually(timeout: .seconds(30)) { try await connection.nameOwner(of: "org.nook.Nook1") == nil })
        #expect(await eventually(timeout: .seconds(30)) { Self.hasExited(pid) }, "nookd (pid \(pid)) did not exit")
        await connection.close()
    }

    /// Gone, or a zombie its parent (the bus daemon) has yet to reap.
    static func hasExited(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}

/// A scratch directory, removed by `remove()`.
struct Scratch {
    let url: URL
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}
