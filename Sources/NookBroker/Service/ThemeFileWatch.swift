#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import NookBus

/// The theme file's watch, armed before nookd reads the theme for the first time, so that no
/// save between that read and the broker's start goes unseen: a change reported before the
/// broker exists is remembered and reloaded once it does.
final class ThemeFileReloads: Sendable {
    private struct State {
        var broker: Broker?
        var missed = false
    }

    private let state = Locked(State())
    private let path: String
    private let log: Log
    private let watch = Locked<FileChangeWatch?>(nil)

    /// Nil when the configuration gave the theme itself (there is no file to watch).
    init?(_ configuration: BrokerConfiguration) {
        guard configuration.theme == nil else { return nil }
        path = BrokerConfiguration.themeFile(environment: ProcessInfo.processInfo.environment).path
        log = configuration.log
        let made = FileChangeWatch(path: path) { [weak self] in self?.changed() }
        if made == nil {
            log(.warning, "cannot watch \(path) (inotify is unavailable); the theme file is read again on SIGHUP and ReloadTheme")
        }
        watch.withLock { $0 = made }
    }

    /// From now on a change reloads `broker`'s theme, and one seen while it started does now.
    func attach(_ broker: Broker) {
        let missed = state.withLock { state in
            state.broker = broker
            return state.missed
        }
        if missed { reload(broker) }
    }

    func stop() {
        watch.withLock { $0?.stop() }
    }

    private func changed() {
        let broker = state.withLock { state in
            if state.broker == nil { state.missed = true }
            return state.broker
        }
        if let broker { reload(broker) }
    }

    private func reload(_ broker: Broker) {
        let (path, log) = (path, log)
        Task {
            log(.info, "the theme file \(path) changed; reloading it")
            // A bad file is logged by the broker and changes nothing.
            _ = try? await broker.reloadTheme()
        }
    }
}
