import NookCore
import NookBus
import Foundation
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
        let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let path = "\(directory)/\(player)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    private static let reported = ReportedOnce()

    /// Plays `name` (`canberra-gtk-play -i NAME -d DESCRIPTION`) without waiting for it.
    /// - Returns: false when no player is installed or it could not be started (nothing played).
    @discardableResult
    public static func play(_ name: String, description: String = "Nook") -> Bool {
        guard let path = playerPath() else {
            if reported.first() {
                FileHandle.standardError.write(Data("nook: \(player) is not installed; sounds are not played\n".utf8))
            }
            return false
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-i", name, "-d", description]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Foundation reaps the child when it exits; nothing here waits for it.
        process.terminationHandler = { _ in }
        do {
            try process.run()
            return true
        } catch {
            FileHandle.standardError.write(Data("nook: cannot start \(path): \(error)\n".utf8))
            return false
        }
    }
}

/// True the first time only: a missing player is reported once per process.
private final class ReportedOnce: Sendable {
    private let done = Locked(false)
    func first() -> Bool { done.withLock { done in defer { done = true }; return !done } }
}
