import FoundationEssentials
import Glibc
import NookFiles
import NookModuleAPI

/// The spec's hints the publisher acts on: `desktop-entry`, the sounds, and the body's links.
extension Publisher {
    /// The `.desktop` file the `desktop-entry` hint names, read from the data directories
    /// (`BridgeSettings.desktopDirectories`); nil without the hint, or when no such file is
    /// there (logged).
    func desktopEntry(_ id: UInt32, _ request: NotificationRequest) -> DesktopEntry? {
        guard let name = request.specHints.desktopEntry else { return nil }
        guard let entry = DesktopEntryCache.shared.find(name, in: settings.desktopDirectories) else {
            log("notification \(id): desktop-entry '\(name)' has no readable \(name).desktop in the data directories; its icon and name are not used")
            return nil
        }
        return entry
    }

    /// The desktop file's icon, as `iconSource` reads an `app_icon`.
    func desktopIconURI(_ id: UInt32, _ entry: DesktopEntry?) -> String? {
        guard let icon = entry?.icon else { return nil }
        switch Self.iconSource(icon) {
        case .none: return nil
        case .uri(let uri): return uri
        case .refused(let path, let reason):
            log("notification \(id): the desktop entry's Icon '\(path.prefixBytes(200))' \(reason); shown without it")
            return nil
        }
    }

    /// The arguments `canberra-gtk-play` plays the notification's sound with: a rule's `sound`
    /// first (the user's word: `sound=off` silences it, `sound=NAME` plays NAME even over
    /// `suppress-sound`), then `sound-file` (a readable regular file) before `sound-name`; nil
    /// when there is none, it is suppressed, or the bridge plays no sounds (`--no-sound`).
    func soundArguments(_ id: UInt32, _ request: NotificationRequest) -> [String]? {
        let hints = request.specHints
        guard settings.sound else { return nil }
        switch request.ruleEffects.sound {
        case .off?: return nil
        case .named(let name)?: return ["-i", name, "-d", request.appName.isEmpty ? "Notification" : request.appName]
        case nil: break
        }
        guard !hints.suppressSound else { return nil }
        if let file = hints.soundFile {
            let path = file.hasPrefix("file://") ? String(file.dropFirst("file://".count)) : file
            if !path.hasPrefix("/") {
                log("notification \(id): sound-file '\(file.prefixBytes(200))' is not an absolute path; not played")
            } else if let reason = NookImageFile.refusal(path: path) {
                log("notification \(id): sound-file '\(path.prefixBytes(200))' \(reason); not played")
            } else {
                return ["-f", path, "-d", "Notification"]
            }
        }
        if let name = hints.soundName { return ["-i", name, "-d", "Notification"] }
        return nil
    }

    /// Plays the notification's sound, if it has one, without waiting for it.
    func playSound(_ id: UInt32, _ request: NotificationRequest) {
        guard let arguments = soundArguments(id, request) else { return }
        if let problem = DetachedCommand.run(NookSound.player, arguments) {
            log("notification \(id): its sound is not played: \(problem)")
        }
    }

    /// A press on a link of notification `id`'s body: `xdg-open URL`, for the schemes
    /// `BodyMarkup.linkSchemes` allows (checked again here); the notification stays.
    func openLink(_ id: UInt32, _ url: String) {
        guard BodyMarkup.isOpenable(url) else {
            log("notification \(id): link '\(url.prefixBytes(200))' is not http, https or mailto; not opened")
            return
        }
        if let problem = DetachedCommand.run("xdg-open", [url]) {
            log("notification \(id): cannot open link \(url): \(problem)")
        } else {
            log("notification \(id): opened link \(url)")
        }
    }
}

extension BridgeSettings {
    /// What `GetCapabilities` answers with these settings (`NotificationsInterface.capabilities`).
    public var capabilities: [String] {
        NotificationsInterface.capabilities(
            persistence: historyCapacity > 0, sound: sound && DetachedCommand.path(of: NookSound.player) != nil)
    }
}
