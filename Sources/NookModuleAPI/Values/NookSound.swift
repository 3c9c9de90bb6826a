import NookCore
import NookBus
import FoundationEssentials
import NookFiles
import Synchronization

/// Plays a sound of the desktop's freedesktop sound theme (`complete`, `bell`) through
/// `canberra-gtk-play`, the command-line player of libcanberra, which finds the theme's file
/// and plays it through the desktop's sound server.
///
/// The player is optional: without it (Debian's `gnome-session-canberra` package holds it) a
/// sound is simply not played, which `play` reports once on standard error and never as an
/// error. It runs in the background and is not waited for.
public enum NookSound {
    /// The player's command name, looked up in `PATH`.
    public static let player = "canberra-gtk-play"

    /// The player's path in `PATH`, or nil when it is not installed.
    public static func playerPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        DetachedCommand.path(of: player, environment: environment)
    }

    private static let reported = ReportedOnce()

    /// Plays `name` (`canberra-gtk-play -i NAME -d DESCRIPTION`) without waiting for it.
    /// - Returns: false when no player is installed or it could not be started (nothing played).
    @discardableResult
    public static func play(_ name: String, description: String = "Nook") -> Bool {
        guard let path = playerPath() else {
            if reported.first() {
                StandardStream.error.write("nook: \(player) is not installed; sounds are not played\n")
            }
            return false
        }
        switch DetachedCommand.spawn(path, [player, "-i", name, "-d", description]) {
        case .success:
            return true
        case .failure(let failure):
            StandardStream.error.write("nook: \(failure)\n")
            return false
        }
    }
}

/// True the first time only: a missing player is reported once per process.
private final class ReportedOnce: Sendable {
    private let done = Locked(false)
    func first() -> Bool { done.withLock { done in defer { done = true }; return !done } }
}
