import Glibc

/// Whether a process's stderr goes to the systemd journal, so its lines may carry syslog
/// priority prefixes (`<3>`, `<4>`, `<6>`, `<7>`; sd-daemon(3)).
public enum JournalStream {
    /// True when fd 2 is the stream `JOURNAL_STREAM` (`device:inode`) names, as systemd.exec(5)
    /// says to check: a child with stderr redirected elsewhere inherits the variable.
    public static func isStderr(environment value: String?) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// The same, for this process's environment.
    public static var isStderr: Bool {
        isStderr(environment: getenv("JOURNAL_STREAM").map { String(cString: $0) })
    }
}
