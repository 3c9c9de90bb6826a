#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import NookBus

/// Leveled log lines on stderr, one `write` each.
///
/// Under systemd, when stderr is the journal's stream (`JOURNAL_STREAM` names its device and
/// inode), each line starts with its syslog priority (`<3>` error, `<4>` warning, `<6>` info,
/// `<7>` debug; sd-daemon(3)) and no pid, which the journal records itself, so
/// `journalctl --user -u nookd -p warning` shows warnings and errors only. Elsewhere a line
/// reads `nookd[pid] level: message`.
public struct Log: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        var name: String { ["debug", "info", "warning", "error"][rawValue] }
        /// The syslog priority journald reads from a `<N>` prefix.
        var priority: Int { [7, 6, 4, 3][rawValue] }
    }

    public var minimum: Level
    /// True when lines go to the journal with priority prefixes.
    public var journal: Bool

    public init(minimum: Level = .info, journal: Bool = JournalStream.isStderr) {
        self.minimum = minimum
        self.journal = journal
    }

    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        var text = line(level, message())
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// One line as written, newline included.
    public func line(_ level: Level, _ message: String) -> String {
        // A message may hold newlines (a quoted input): each line keeps the priority.
        if journal {
            return message.split(separator: "\n", omittingEmptySubsequences: false).map { "<\(level.priority)>\($0)\n" }.joined()
        }
        return "nookd[\(getpid())] \(level.name): \(message)\n"
    }
}
