import NookCore
import FoundationEssentials
import Glibc
import NookFiles
import NookBus
import NookModuleAPI

/// Follows real media players over MPRIS (`org.mpris.MediaPlayer2.*` on the session bus) and
/// yields what the chosen one plays.
///
/// Subscribes first (players coming and going, `PropertiesChanged`, `Seeked`), then lists
/// the players and reads the chosen one's `Metadata`, `PlaybackStatus` and `Position`; every
/// change signal from that player reads them again. A player that is playing is preferred,
/// then the first by name; with `player` set, only that player (and its `NAME.*` instances)
/// is followed. Nil means nothing plays.
actor MPRISBridge {
    static let prefix = "org.mpris.MediaPlayer2."
    static let path: ObjectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let properties = "org.freedesktop.DBus.Properties"

    let bus: BusConnection
    /// The bridge runs on its connection's bus thread: a player's signal is handled where it
    /// arrives, and a call to the player leaves without a thread hop.
    nonisolated var unownedExecutor: UnownedSerialExecutor { bus.unownedExecutor }
    let output: AsyncStream<NowPlaying?>.Continuation
    /// `--player NAME`: the part after the MPRIS prefix; nil follows every player.
    let only: String?
    /// Player bus names -> their unique names.
    var players: [String: String] = [:]
    var chosen: String?
    var last: NowPlaying??
    /// What was logged about a player's values (player, key, why), so a player that sends the
    /// same bad value on every change is logged once; forgotten past 256 lines.
    var reported: Set<String> = []

    init(bus: BusConnection, output: AsyncStream<NowPlaying?>.Continuation, only: String?) {
        self.bus = bus
        self.output = output
        self.only = only
    }

    /// True for the names this bridge follows: every MPRIS player, or the one asked for.
    func follows(_ name: String) -> Bool {
        guard name.hasPrefix(Self.prefix) else { return false }
        guard let only else { return true }
        let player = name.dropFirst(Self.prefix.count)
        return player == only || player.hasPrefix(only + ".")
    }

    /// A connection to the bus the players are on.
    static func connect(_ address: NookModuleAddress) async throws -> BusConnection {
        switch address {
        case .session: try await BusConnection.connect(to: .session, description: "nook-music-mpris")
        case .bus(let text): try await BusConnection.connect(to: .address(text), description: "nook-music-mpris")
        }
    }

    /// Starts following players on `bus`.
    /// - Returns: the bridge (whose `commands` control the chosen player) and what it plays.
    static func follow(on bus: BusConnection, player: String? = nil) async throws -> (MPRISBridge, AsyncStream<NowPlaying?>) {
        let (stream, continuation) = AsyncStream<NowPlaying?>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let bridge = MPRISBridge(bus: bus, output: continuation, only: player)
        try await bridge.start()
        return (bridge, stream)
    }

    /// The song's controls: `Previous`, `PlayPause` and `Next` on the chosen player. The
    /// player's `PropertiesChanged` then brings its new state back through `refresh`.
    nonisolated var commands: PlayerCommands {
        PlayerCommands(
            previous: { await self.send("Previous") }, playPause: { await self.send("PlayPause") }, next: { await self.send("Next") })
    }

    /// Calls `member` of `org.mpris.MediaPlayer2.Player` on the chosen player.
    func send(_ member: String) async {
        guard let chosen else { return }
        do {
            _ = try await bus.call(destination: chosen, path: Self.path, interface: Self.playerInterface, member: member, timeout: .seconds(5))
        } catch {
            StandardStream.error.write("nook-mpris: \(member) on \(chosen) failed: \(error)\n")
        }
    }

    func start() async throws {
        let owners = try await bus.nameOwnerChanges()
        let changed = try await bus.signals(
            matching: MatchRule(path: Self.path, interface: Self.properties, member: "PropertiesChanged", arguments: [0: Self.playerInterface]))
        let seeked = try await bus.signals(matching: MatchRule(path: Self.path, interface: Self.playerInterface, member: "Seeked"))
        // Read on the bus thread too, where the signals arrive.
        Task(executorPreference: bus.executor) { for await change in owners { await self.ownerChanged(change) } }
        Task(executorPreference: bus.executor) { for await signal in changed { await self.signalled(by: signal.sender) } }
        Task(executorPreference: bus.executor) { for await signal in seeked { await self.signalled(by: signal.sender) } }
        let names = try await bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames")
        if case .array(_, let items)? = names.first {
            for case .string(let name) in items where follows(name) {
                if let owner = try? await bus.nameOwner(of: name) { players[name] = owner }
            }
        }
        await choose()
    }

    func ownerChanged(_ change: NameOwnerChange) async {
        guard follows(change.name) else { return }
        players[change.name] = change.newOwner.isEmpty ? nil : change.newOwner
        await choose()
    }

    func signalled(by sender: String) async {
        if let chosen, players[chosen] == sender {
            await refresh()
        } else if players.values.contains(sender) {
            // Another player changed (it may have started playing): choose again.
            await choose()
        }
    }

    /// Picks a player (a playing one first) and reports what it plays.
    func choose() async {
        var best: String?
        for name in players.keys.sorted() {
            if best == nil { best = name }
            if (try? await read(name))??.playing == true {
                best = name
                break
            }
        }
        chosen = best
        await refresh()
    }

    func refresh() async {
        var now: NowPlaying?
        if let chosen, let read = try? await read(chosen) { now = read }
        // Keep the earlier sample while the song simply kept playing, so nothing is resent.
        if let now, case .some(.some(let previous)) = last, now.sameTimeline(as: previous) { return }
        if case .some(let previous) = last, previous == now { return }
        last = .some(now)
        output.yield(now)
    }

    /// The player's state; nil when it is stopped or plays nothing.
    func read(_ name: String) async throws -> NowPlaying? {
        let reply = try await bus.call(
            destination: name, path: Self.path, interface: Self.properties, member: "GetAll",
            arguments: [.string(Self.playerInterface)], timeout: .seconds(5))
        let props = try WireCodec.dictionary(reply.first ?? .array(element: "v", []), at: "player")
        let status = props["PlaybackStatus"].flatMap(\.stringValue) ?? "Stopped"
        guard status != "Stopped", case .dictionary(let metadata)? = props["Metadata"] else { return nil }
        guard let title = metadata["xesam:title"].flatMap(\.stringValue), !title.isEmpty else { return nil }
        let artist: String
        switch metadata["xesam:artist"] {
        case .array(let names)?: artist = names.compactMap(\.stringValue).joined(separator: ", ")
        case .string(let name)?: artist = name
        default: artist = ""
        }
        let source = String(name.dropFirst(Self.prefix.count))
        let track = Track(
            title: title, artist: artist, artURL: artURL(metadata["mpris:artUrl"].flatMap(\.stringValue), player: source),
            length: number(.length, metadata["mpris:length"], player: source).map { .microseconds($0) })
        let position = number(.position, props["Position"], player: source) ?? 0
        return NowPlaying(track: track, playing: status == "Playing", position: .microseconds(position), sampled: .now(), source: source)
    }

    /// A number the player sent, in microseconds, when it is in its range (`MPRISNumber`);
    /// nil when absent or out of range, which is logged once naming the player and the key.
    func number(_ key: MPRISNumber, _ value: PropValue?, player: String) -> Int64? {
        switch key.read(value) {
        case .absent: return nil
        case .value(let micros): return micros
        case .refused(let why):
            report("player \(player): \(key.rawValue) \(why); ignored as absent")
            return nil
        }
    }

    /// `mpris:artUrl` as the renderer may load it: a `file://` URI only when it names a
    /// regular file (not a FIFO or a device, which would stall whoever opens it); other
    /// schemes pass as they are (renderers draw a tile for what they do not fetch).
    func artURL(_ url: String?, player: String) -> String? {
        guard let url, !url.isEmpty else { return nil }
        guard url.hasPrefix("file://") else { return url }
        guard let path = URL(string: url)?.path, !path.isEmpty else {
            report("player \(player): mpris:artUrl '\(url.prefix(200))' is not a file URI nook-mpris can read; shown without art")
            return nil
        }
        if let refusal = NookImageFile.refusal(path: path) {
            report("player \(player): mpris:artUrl \(path.prefix(200)) \(refusal); shown without art")
            return nil
        }
        return url
    }

    func report(_ line: String) {
        if reported.count >= 256 { reported.removeAll() }
        guard reported.insert(line).inserted else { return }
        StandardStream.error.write("nook-mpris: \(line)\n")
    }
}

extension PropValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
