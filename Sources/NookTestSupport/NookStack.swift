import Foundation

/// What a test fixture of running processes is built on: one scratch directory, and every
/// part started in it (an X server or compositor, the private bus, nookd, modules, a
/// renderer), each ended in `stop()` by its pid, newest first; then the directory goes.
/// A fixture that fails half-way through starting stops what it had started.
///
/// ```swift
/// let nook = try await NookStack.build(named: "nookctl-live") { stack in
///     let bus = try stack.bus()
///     let nookd = try await stack.nookd(on: bus)
///     return LiveNook(stack: stack, bus: bus, nookd: nookd)
/// }
/// ```
public final class NookStack: @unchecked Sendable {
    // @unchecked: `stops` changes only under `lock`.
    public let scratch: URL
    private let lock = NSLock()
    private var stops: [@Sendable () async -> Void] = []

    private init(scratch: URL) { self.scratch = scratch }

    /// Makes a fresh scratch directory `<temp>/<name>-<uuid>` and runs `build` with the stack.
    /// - Throws: what `build` threw, after stopping every part it had started.
    public static func build<Fixture>(named name: String, _ build: (NookStack) async throws -> Fixture) async throws -> Fixture {
        let stack = NookStack(scratch: FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: stack.scratch, withIntermediateDirectories: true)
        do { return try await build(stack) } catch {
            await stack.stop()
            throw error
        }
    }

    /// Adds a part's stop, to run before the stops of every part started earlier.
    public func onStop(_ stop: @escaping @Sendable () async -> Void) { lock.withLock { stops.append(stop) } }

    /// A private dbus-daemon.
    public func bus(allowingOtherUsers: Bool = false) throws -> PrivateBus {
        let bus = try PrivateBus(allowingOtherUsers: allowingOtherUsers)
        onStop { bus.stop() }
        return bus
    }

    /// nookd on `bus` with its state and config in the scratch directory (the same again after a
    /// restart), serving once this returns; `grace` as in `NookdProcess`.
    public func nookd(on bus: PrivateBus, grace: String? = nil) async throws -> NookdProcess {
        let nookd = try await NookdProcess(bus: bus, home: scratch, grace: grace)
        onStop { await nookd.stop() }
        return nookd
    }

    /// A package executable, its log in the scratch directory.
    public func process(_ product: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> PackageProcess {
        // Its configuration is the test's, never the user's (a bridge reads ~/.config/nook).
        let isolated: [String: String?] = ["XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path]
        let process = try PackageProcess(product, arguments, logDirectory: scratch, environment: isolated.merging(environment) { $1 })
        onStop { await process.stop() }
        return process
    }

    /// Waits up to a minute for `condition`.
    /// - Throws: `TestSupportError` saying what did not come up, with `logs`.
    public func waitUntil(_ what: String, logs: @autoclosure () -> String, _ condition: @Sendable () async -> Bool) async throws {
        guard await eventually(timeout: .seconds(60), poll: .milliseconds(50), condition) else {
            throw TestSupportError("\(what) did not come up:\n\(logs())")
        }
    }

    /// Ends every part, newest first, and removes the scratch directory.
    public func stop() async {
        let parts = lock.withLock { defer { stops = [] }; return stops }
        for stop in parts.reversed() { await stop() }
        if ProcessInfo.processInfo.environment["NOOK_KEEP_SCRATCH"] == nil { try? FileManager.default.removeItem(at: scratch) }
    }
}

/// A fixture of running processes that a test uses, then stops.
public protocol StoppableFixture: Sendable {
    func stop() async
}

extension StoppableFixture {
    /// Runs `body` with this fixture, then stops it, whatever happens.
    public func use<T>(_ body: (Self) async throws -> T) async throws -> T {
        do {
            let result = try await body(self)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }
}

extension PackageProcess {
    /// Each process's log under a `--- <log file>` line, for a failure message.
    public static func logs(_ processes: [PackageProcess]) -> String {
        processes.map { "--- \($0.logFile.lastPathComponent)\n\($0.log)" }.joined(separator: "\n")
    }
}
