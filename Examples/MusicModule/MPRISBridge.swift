import Foundation
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
    let output: AsyncStream<NowPlaying?>.Continuation
    /// `--player NAME`: the part after the MPRIS prefix; nil follows every player.
    let only: String?
    /// Player bus names -> their unique names.
    var players: [String: String] = [:]
    var chosen: String?
    var last: NowPlaying??

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

    /// Connects and starts following players.
    /// - Returns: the bridge (whose `commands` control the chosen player) and what it plays.
    static func follow(address: NookModuleAddress, player: String? = nil) async throws -> (MPRISBridge, AsyncStream<NowPlaying?>) {
        let bus: BusConnection
        switch address {
        case .session: bus = try await BusConnection.connect(to: .session, description: "nook-music-mpris")
        case .bus(let text): bus = try await BusConnection.connect(to: .address(text), description: "nook-music-mpris")
        }
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
            FileHandle.standardError.write(Data("nook-mpris: \(member) on \(chosen) failed: \(error)\n".utf8))
        }
    }

    func start() async throws {
        let owners = try await bus.nameOwnerChanges()
        let changed = try await bus.signals(
            matching: MatchRule(path: Self.path, interface: Self.properties, member: "PropertiesChanged", arguments: [0: Self.playerInterface]))
        let seeked = try await bus.signals(matching: MatchRule(path: Self.path, interface: Self.playerInterface, member: "Seeked"))
        Task { for await change in owners { await self.ownerChanged(change) } }
        Task { for await signal in changed { await self.signalled(by: signal.sender) } }
        Task { for await signal in seeked { await self.signalled(by: signal.sender) } }
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
        let track = Track(
            title: title, artist: artist, artURL: metadata["mpris:artUrl"].flatMap(\.stringValue).flatMap { $0.isEmpty ? nil : $0 },
            length: metadata["mpris:length"].flatMap(\.microseconds).map { .microseconds($0) })
        let position = props["Position"].flatMap(\.microseconds) ?? 0
        return NowPlaying(
            track: track, playing: status == "Playing", position: .microseconds(position), sampled: .now(),
            source: String(name.dropFirst(Self.prefix.count)))
    }
}

extension PropValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// An MPRIS time (`x`, though some players send `t` or a double), in microseconds.
    fileprivate var microseconds: Int64? {
        switch self {
        case .int(let value): return value
        case .uint(let value): return Int64(clamping: value)
        case .double(let value) where value.isFinite: return Int64(value)
        default: return nil
        }
    }
}
