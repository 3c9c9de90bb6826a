import Foundation

/// Starts a helper program (`xdg-open`, `canberra-gtk-play`) found in `PATH`, with its output
/// discarded, and does not wait for it: the bridge never blocks on a browser or a sound.
enum DetachedCommand {
    /// The path of `command` in `PATH`, nil when it is not installed.
    static func path(of command: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories where !directory.isEmpty {
            let path = "\(directory)/\(command)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// Runs `command` with `arguments` (each one argument: no shell reads them).
    /// - Returns: why it did not start, nil when it did.
    @discardableResult
    static func run(_ command: String, _ arguments: [String]) -> String? {
        guard let path = path(of: command) else { return "\(command) is not installed" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Foundation reaps the child when it exits; nothing here waits for it.
        process.terminationHandler = { _ in }
        do {
            try process.run()
            return nil
        } catch {
            return "cannot start \(path): \(error)"
        }
    }
}
