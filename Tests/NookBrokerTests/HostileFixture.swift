import Foundation
import Testing
import NookBus
import NookTestSupport

/// The hostile-client suites' common ending: whatever a client sent, nookd still answers
/// `GetState`, and it answers again after a `kill -9` and a restart on the same state
/// directory, so nothing it saved can crash the next start.
enum Hostile {
    /// False under a sanitizer: AddressSanitizer's quarantine keeps freed memory resident (tens
    /// of MiB in a flood), and ThreadSanitizer's shadow memory grows with what a process
    /// touches, so a bound on RSS growth would measure the sanitizer. The rest of each test runs.
    static let measuresMemoryGrowth = getenv("ASAN_OPTIONS") == nil && getenv("TSAN_OPTIONS") == nil

    /// Calls `probe` (defaults to `GetState`) on the running nookd, kills it with SIGKILL, waits
    /// for its state to be on disk first (the broker writes within one second), restarts it on
    /// the same state directory and probes again. Returns the restarted nookd for further checks.
    @discardableResult
    static func expectSurvivesRestart(
        _ nookd: NookdProcess, bus: PrivateBus,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> NookdProcess {
        #expect(nookd.isRunning, "nookd died: \(nookd.log.suffix(3000))", sourceLocation: sourceLocation)
        let client = try await BrokerClient.connect(bus)
        defer { Task { await client.close() } }
        let before = try? await client.state()
        #expect(before != nil, "nookd does not answer GetState: \(nookd.log.suffix(3000))", sourceLocation: sourceLocation)
        // The debounced write lands within a second of the last change: wait until nookd says
        // every change is on disk (however long a loaded machine takes), not for a guessed time.
        let written = await eventually { (try? await client.state())?["persistence_pending"] == .bool(false) }
        #expect(written, "nookd still had state to write: \(nookd.log.suffix(3000))", sourceLocation: sourceLocation)
        await nookd.stop(SIGKILL)
        // The bus daemon drops the dead owner's name before a new nookd can take it.
        _ = await eventually { (try? await client.connection.nameOwner(of: "org.nook.Nook1")) == nil }
        let restarted = try await NookdProcess(bus: bus, stateDirectory: nookd.stateDirectory)
        let again = try? await client.state()
        #expect(again != nil, "the restarted nookd does not answer GetState: \(restarted.log.suffix(3000))",
                sourceLocation: sourceLocation)
        #expect(restarted.isRunning, "the restarted nookd died: \(restarted.log.suffix(3000))", sourceLocation: sourceLocation)
        return restarted
    }

    /// Makes `url` a sparse file of `bytes` bytes (`truncate -s`): huge on paper, nothing on disk.
    static func sparseFile(_ url: URL, bytes: Int64) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestSupportError("cannot create \(url.path): errno \(errno)") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(bytes)) == 0 else { throw TestSupportError("cannot grow \(url.path): errno \(errno)") }
    }

    /// The type bits of what is at `url` itself (`S_IFREG`, `S_IFLNK`, ...; a link is not
    /// followed), 0 when there is nothing.
    static func fileType(_ url: URL) -> mode_t {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// The permission bits of `url` (`0o700`), nil when there is nothing.
    static func permissions(_ url: URL) -> mode_t? {
        var info = stat()
        return lstat(url.path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// A python3-dbus snippet run to completion against `bus`: `nook` is the object at
    /// /org/nook/Nook1, with `modules`, `control` and `render` interfaces bound. Returns stdout.
    static func python(_ bus: PrivateBus, _ body: String) async throws -> Tools.Result {
        let prelude = """
            import dbus, sys
            bus = dbus.bus.BusConnection("\(bus.address)")
            nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1")
            modules = dbus.Interface(nook, "org.nook.Nook1.Modules")
            control = dbus.Interface(nook, "org.nook.Nook1.Control")
            render = dbus.Interface(nook, "org.nook.Nook1.Render")
            def node(kind, props=None, children=()):
                return dbus.Struct((kind, dbus.Dictionary(props or {}, signature="sv"), dbus.Array(list(children), signature="v")), signature="sa{sv}av")
            def spec(**extra):
                s = {"accessibility_label": "x", "compact_leading": node("text", {"text": "L"}),
                     "compact_trailing": node("text", {"text": "T"}), "minimal": node("text", {"text": "M"})}
                s.update(extra)
                return dbus.Dictionary(s, signature="sv")

            """
        return try await Tools.run("/usr/bin/python3", ["-u", "-c", prelude + body])
    }
}
