import NookFiles
import FoundationEssentials
import Glibc

/// Tells a crash loop from an ordinary restart, so a state file that kills nookd cannot kill
/// it on every start (systemd's `Restart=on-failure` would otherwise replay it forever).
///
/// The marker `nookd.starting` in the state directory says "a start is under way": `arm()`
/// writes it before the state file is read, `disarm()` removes it once nookd has served for
/// `survivalWindow` (10 s) after `READY=1`, and on every orderly exit (a signal, a lost bus,
/// a failed start). A marker found at start therefore means the previous nookd died within
/// its first 10 s without saying goodbye: a crash, an abort, a SIGKILL. The marker counts
/// such deaths in a row; at `earlyDeathsToTrip` (2) the state file is set aside
/// (`state.crashloop-<...>.json`) and nookd starts empty, saying so at error level.
///
/// The marker is written like `state.json` (a new file in the checked state directory, renamed
/// into place: `StateDirectory`) and read without following a link, at most `maxMarkerBytes`
/// (`BoundedFileRead`): a link, a FIFO or a huge file there reads as a broken marker.
///
/// Why two and not one: a single early death is often not the state's fault (a power cut or
/// `kill -9` right after login); two in a row is a loop. A SIGTERM restart, or a SIGKILL of a
/// nookd that has run past the window, leaves no marker and counts as nothing.
public struct CrashLoopGuard: Sendable {
    public static let survivalWindow: Duration = .seconds(10)
    public static let earlyDeathsToTrip = 2

    public let markerURL: URL

    public init(directory: URL) {
        markerURL = directory.appendingPathComponent("nookd.starting")
    }

    struct Marker: Codable {
        var pid: Int32
        /// Starts in a row, before the one that wrote this marker, that died early.
        var earlierDeaths: Int
        enum CodingKeys: String, CodingKey {
            case pid
            case earlierDeaths = "earlier_deaths"
        }
    }

    public enum Verdict: Equatable, Sendable {
        /// No sign of trouble, or fewer early deaths in a row than trip the guard.
        case ok(earlyDeaths: Int)
        /// The previous starts died early `earlyDeaths` times in a row: set the state aside.
        case tripped(earlyDeaths: Int)
        /// The marker belongs to a nookd that is still running (another instance starting on
        /// this directory): nothing is counted and its marker is left alone.
        case anotherInstance(pid: Int32)
    }

    /// The marker's largest size read: it holds a pid and a count.
    static let maxMarkerBytes = 4096

    /// Reads the previous start's marker and writes this one's.
    /// - Throws: when this start's marker cannot be written (the verdict is then `ok`: the
    ///   guard cannot count this start, and says so rather than guessing).
    public func arm() throws -> Verdict {
        let directory = try StateStore.openForWriting(markerURL.deletingLastPathComponent())
        var deaths = 0
        // A link, a FIFO or a huge file there is no marker of ours: read as a broken one.
        let found: Data?
        do { found = try directory.read(markerName, limit: Self.maxMarkerBytes) } catch { found = Data() }
        if let data = found {
            let previous = try? JSONDecoder().decode(Marker.self, from: data)
            if let previous, previous.pid != getpid(), Self.isNookd(previous.pid) {
                return .anotherInstance(pid: previous.pid)
            }
            deaths = (previous?.earlierDeaths ?? 0) + 1
        }
        let tripped = deaths >= Self.earlyDeathsToTrip
        // After setting the state aside the count starts again.
        let marker = Marker(pid: getpid(), earlierDeaths: tripped ? 0 : deaths)
        try directory.writeAtomically(try JSONEncoder().encode(marker), to: markerName)
        return tripped ? .tripped(earlyDeaths: deaths) : .ok(earlyDeaths: deaths)
    }

    /// Removes this process's marker: it survived, or it is exiting in order.
    public func disarm() {
        guard let directory = try? StateDirectory.open(markerURL.deletingLastPathComponent(), create: false),
              let data = try? directory.read(markerName, limit: Self.maxMarkerBytes),
              let marker = try? JSONDecoder().decode(Marker.self, from: data), marker.pid == getpid() else { return }
        directory.unlink(markerName)
    }

    private var markerName: String { markerURL.lastPathComponent }

    /// True when `pid` is a live process named nookd (a pid reused by something else is not).
    static func isNookd(_ pid: Int32) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        // A zombie (dead, not yet reaped) is not running.
        let stat = procText("/proc/\(pid)/stat")
        if let close = stat.lastIndex(of: ")"), stat[close...].dropFirst().drop(while: { $0 == " " }).hasPrefix("Z") { return false }
        let comm = procText("/proc/\(pid)/comm")
        return comm.split(whereSeparator: \.isWhitespace).first == "nookd"
    }

    /// A small `/proc` file's text ("" when unreadable), read through `BoundedFileRead`.
    private static func procText(_ path: String) -> String {
        let data = (try? BoundedFileRead.read(path, limit: 4096, followLinks: false)) ?? nil
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
