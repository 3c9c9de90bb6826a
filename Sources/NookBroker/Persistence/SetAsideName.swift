import FoundationEssentials
import Glibc
import Synchronization

/// Names for files the broker sets aside beside `state.json` (a corrupt state file, the state
/// of a crash loop, refused entries): `state.<kind>-<UTC time>-<pid>-<n>.json`, for example
/// `state.corrupt-20261201T022348Z-4242-1.json`.
///
/// Guarantee: a name is never reused and nothing is overwritten. The time says when, the pid
/// and a per-process counter keep two set-asides within one second apart, and each name is
/// reserved with `O_CREAT | O_EXCL | O_NOFOLLOW`, relative to the checked state directory's
/// descriptor (`StateDirectory`), before anything is written or renamed onto it, so even
/// a clash (a pid reused within a second) picks the next number instead of replacing a file.
enum SetAsideName {
    private static let counter = Atomic<UInt64>(0)

    /// Reserves a new, empty file `state.<kind>-...json` in `directory` and returns its name.
    static func reserve(kind: String, in directory: StateDirectory, now: Date) throws -> String {
        let stamp = utcStamp(now)
        for _ in 0..<1000 {
            let number = counter.add(1, ordering: .relaxed).newValue
            let name = "state.\(kind)-\(stamp)-\(getpid())-\(number).json"
            if try directory.createNew(name) { return name }
        }
        throw StateStoreError(operation: "find a free name for state.\(kind) in \(directory.url.path)", errno: EEXIST)
    }

    /// `now` as `yyyyMMddTHHmmssZ` in UTC.
    static func utcStamp(_ now: Date) -> String {
        // A clock far outside time_t's reach still names a file rather than trapping.
        let since1970 = now.timeIntervalSince1970
        var seconds = time_t(since1970.isFinite ? Int64(min(max(since1970.rounded(.down), 0), 1e15)) : 0)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// Moves `name` (a file, or a link: it is not followed) to a new reserved name in the same
    /// directory; returns the new name.
    static func move(_ name: String, kind: String, in directory: StateDirectory, now: Date) throws -> String {
        let target = try reserve(kind: kind, in: directory, now: now)
        // Replaces only the empty placeholder reserved above.
        do {
            try directory.rename(name, to: target)
        } catch {
            directory.unlink(target)
            throw error
        }
        return target
    }
}
