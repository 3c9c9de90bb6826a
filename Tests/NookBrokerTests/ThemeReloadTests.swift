import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// nookd reads its theme file again on SIGHUP (systemd's `ExecReload`) and on
/// `Control.ReloadTheme` (`nookctl reload`): a good file applies, a bad one is refused naming
/// the token, and the previous theme stays.
@Suite(.serialized) struct ThemeReloadTests {
    static let control = "org.nook.Nook1.Control"

    static func writeTheme(_ json: String, in nookd: NookdProcess) throws {
        try json.write(to: nookd.configDirectory.appendingPathComponent("nook/theme.json"), atomically: true, encoding: .utf8)
    }

    static func fade(_ client: BrokerClient) async throws -> DBusValue? {
        try Vardict(try await client.call("GetTokens", interface: control)[0])["transition.fade"]
    }

    @Test func sighupAppliesAGoodThemeAndKeepsTheOldOneOverABadOne() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let client = try await BrokerClient.connect(bus)
            let builtIn = try await Self.fade(client)

            try Self.writeTheme(#"{"transition": {"fade": {"$type": "duration", "$value": "450ms"}}}"#, in: nookd)
            nookd.signal(SIGHUP)
            let applied = await eventually { (try? await Self.fade(client)) != builtIn }
            #expect(applied, "SIGHUP did not apply the new theme: \(nookd.log.suffix(2000))")
            let reloaded = try await Self.fade(client)
            #expect(nookd.isRunning)

            // A bad file: refused, logged with the token's path, the theme as it was.
            try Self.writeTheme(#"{"transition": {"fade": {"$value": "{transition.fade}"}}}"#, in: nookd)
            nookd.signal(SIGHUP)
            #expect(await eventually { nookd.log.contains("theme reload:") && nookd.log.contains("transition.fade") }, "\(nookd.log.suffix(2000))")
            #expect(nookd.isRunning)
            #expect(try await Self.fade(client) == reloaded)

            // The same through the contract, with the refusal as the reply.
            _ = await expectDBusError(.invalidTheme, containing: "transition.fade") {
                try await client.call("ReloadTheme", interface: Self.control)
            }
            try Self.writeTheme(#"{"transition": {"fade": {"$type": "duration", "$value": "120ms"}}}"#, in: nookd)
            try await client.call("ReloadTheme", interface: Self.control)
            #expect(try await Self.fade(client) != reloaded)

            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    /// Saving theme.json is enough: nookd watches its directory (inotify; the directory made
    /// after nookd started, as a new user makes `~/.config/nook`) and reloads the file when it
    /// changed (written, replaced, created or removed), as SIGHUP would.
    @Test func savingTheThemeFileReloadsItWithoutASignal() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let client = try await BrokerClient.connect(bus)
            let builtIn = try await Self.fade(client)
            let file = nookd.configDirectory.appendingPathComponent("nook/theme.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)

            try Self.writeTheme(#"{"transition": {"fade": {"$type": "duration", "$value": "450ms"}}}"#, in: nookd)
            #expect(await eventually { (try? await Self.fade(client)) != builtIn }, "the saved theme was not applied: \(nookd.log.suffix(2000))")
            #expect(nookd.log.contains("the theme file \(file.path) changed; reloading it"), "\(nookd.log.suffix(2000))")
            let saved = try await Self.fade(client)

            // Saved again with another value: applied again.
            try Self.writeTheme(#"{"transition": {"fade": {"$type": "duration", "$value": "120ms"}}}"#, in: nookd)
            #expect(await eventually { (try? await Self.fade(client)).map { $0 != saved && $0 != builtIn } == true }, "\(nookd.log.suffix(2000))")

            // Removed: the built-in theme again.
            try FileManager.default.removeItem(at: file)
            #expect(await eventually { (try? await Self.fade(client)) == builtIn }, "\(nookd.log.suffix(2000))")
            #expect(nookd.isRunning)

            // The directory removed and made again, then the file saved in it: followed still.
            try FileManager.default.removeItem(at: file.deletingLastPathComponent())
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.writeTheme(#"{"transition": {"fade": {"$type": "duration", "$value": "450ms"}}}"#, in: nookd)
            #expect(await eventually { (try? await Self.fade(client)) == saved }, "\(nookd.log.suffix(2000))")

            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
