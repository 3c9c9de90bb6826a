import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Issue 38, second pass on persistence, against the real nookd on a private bus: files read
/// whole before their size was checked (finding 9).
@Suite(.serialized) struct HostilePersistenceSecondPassTests {
    typealias State = HandWrittenState
    typealias Spec = BrokerIntegrationTests
    static let control = "org.nook.Nook1.Control"

    // MARK: Finding 9: sizes checked before reads

    /// A 10 GB sparse theme.json and `ReloadTheme` (any connection may call it): refused unread,
    /// with `InvalidTheme` naming the file and the size limit; nookd keeps answering, keeps
    /// its theme, and its memory stays small.
    @Test func anOversizedThemeFileIsRefusedUnread() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: "300s")
            let client = try await BrokerClient.connect(bus)
            defer { Task { await client.close() } }
            let theme = nookd.configDirectory.appendingPathComponent("nook/theme.json")
            try Hostile.sparseFile(theme, bytes: 10 << 30)
            let refusal = await expectDBusError(.invalidTheme, containing: "maxDocumentBytes") {
                try await client.call("ReloadTheme", interface: Self.control)
            }
            #expect(refusal?.message.contains(theme.path) == true, "\(refusal?.message ?? "")")
            #expect(refusal?.message.contains("10737418240 bytes") == true, "\(refusal?.message ?? "")")
            #expect(try await client.state()["persistence"] == .string("ok"), "nookd stopped answering: \(nookd.log.suffix(2000))")
            #expect((HostileRenderersTests.rss(nookd.pid) ?? .max) < 512 * 1024, "nookd read the file")
            // The theme it had (the 300 s grace) is kept.
            #expect(nookd.log.contains("keeping the previous theme"))
            // A FIFO is refused without blocking the bus thread.
            try FileManager.default.removeItem(at: theme)
            #expect(mkfifo(theme.path, 0o600) == 0)
            _ = await expectDBusError(.invalidTheme, containing: "not a regular file (a FIFO)") {
                try await client.call("ReloadTheme", interface: Self.control)
            }
            try FileManager.default.removeItem(at: theme)
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// A 10 GB sparse state.json is set aside unread, like a corrupt one, with a warning naming
    /// the limit; nookd starts empty and answers.
    @Test func anOversizedStateFileIsSetAsideUnread() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Hostile.sparseFile(directory.appendingPathComponent("state.json"), bytes: 10 << 30)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: directory, grace: "300s")
            let client = try await BrokerClient.connect(bus)
            #expect(try await client.activities() == [])
            let aside = State.files(directory, prefix: "state.corrupt-")
            #expect(aside.count == 1)
            let size = (try? FileManager.default.attributesOfItem(atPath: aside.first?.path ?? "")[.size] as? Int) ?? 0
            #expect(size == 10 << 30, "the set-aside file is not the oversized one")
            #expect(nookd.log.contains("10737418240 bytes, over the limit of"), "\(nookd.log.suffix(2000))")
            #expect(nookd.log.contains("moved to \(aside.first?.path ?? "?")"))
            #expect((HostileRenderersTests.rss(nookd.pid) ?? .max) < 512 * 1024, "nookd read the file")
            await client.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// A state.json that is a link (to a state file elsewhere) is not followed: it is set aside
    /// like a file nookd cannot read, and what it pointed at is neither restored nor changed.
    @Test func aStateFileThatIsALinkIsNotFollowed() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let elsewhere = temp.url.appendingPathComponent("planted")
        try State.write(State.file(modules: [State.module("planted", activities: [State.activity("fake", order: 1)])]), to: elsewhere)
        let planted = try Data(contentsOf: elsewhere.appendingPathComponent("state.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("state.json").path, withDestinationPath: elsewhere.appendingPathComponent("state.json").path)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: directory, grace: "300s")
            let client = try await BrokerClient.connect(bus)
            #expect(try await client.activities() == [], "the linked state was restored: \(nookd.log.suffix(2000))")
            #expect(nookd.log.contains("a symbolic link, not followed"), "\(nookd.log.suffix(2000))")
            #expect(State.files(directory, prefix: "state.corrupt-").map(Hostile.fileType) == [S_IFLNK])
            #expect(try Data(contentsOf: elsewhere.appendingPathComponent("state.json")) == planted)
            await client.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }
}
