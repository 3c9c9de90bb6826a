import FoundationEssentials
import NookBus
import NookCore

/// Reloading the theme file: on SIGHUP (systemd's `ExecReload`) and `Control.ReloadTheme`.
extension Broker {
    /// Reads the theme file again and applies it under the `SetTokens` overrides. A bad file,
    /// or one the overrides no longer fit, is refused whole: the previous theme stays. Like a
    /// `SetTokens` change, the new theme applies from the next plan.
    /// - Returns: what was reloaded, for the log and `nookctl reload`.
    /// - Throws: `InvalidTheme` naming the file and the offending token path.
    @discardableResult
    func reloadTheme() throws(DBusError) -> String {
        guard let file = themeFile else {
            throw DBusError(nook: .invalidTheme, "ReloadTheme: this nookd was started with a theme of its own, not a file")
        }
        let fresh: Theme
        let applied: Theme
        do {
            fresh = try BrokerConfiguration.readTheme(file)
            applied = try fresh.applying(tokenOverrides)
        } catch {
            log(.error, "theme reload: \(file.path) refused (\(error)); keeping the previous theme")
            throw DBusError(nook: .invalidTheme, "ReloadTheme \(file.path): \(error)")
        }
        baseTheme = fresh
        settings.theme = applied
        themeChanged()
        let what = FileManager.default.fileExists(atPath: file.path) ? file.path : "the built-in theme (no \(file.path))"
        log(.info, "theme reloaded from \(what)")
        return what
    }
}
