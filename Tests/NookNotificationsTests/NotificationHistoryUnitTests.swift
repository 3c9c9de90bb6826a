import Foundation
import NookBus
import NookTestSupport
import Testing

@testable import NookNotifications

/// The history's pure parts and its file: bounds, validation on load, the table handing the
/// publisher each closed request, and the store's file rules.
struct NotificationHistoryUnitTests {
    static func entry(_ id: UInt32, _ summary: String = "s") throws -> NotificationHistory.Entry {
        NotificationHistory.Entry(id: id, request: try NotificationsUnitTests.notify(summary), reason: .expired, closedAt: 1)
    }

    @Test func theHistoryKeepsTheNewestCapacityEntries() throws {
        var history = NotificationHistory(capacity: 3)
        for id in 1...5 { history.append(try Self.entry(UInt32(id))) }
        #expect(history.entries.map(\.id) == [3, 4, 5])
        #expect(history.popNewest()?.id == 5)
        #expect(history.entries.map(\.id) == [3, 4])
        var none = NotificationHistory(capacity: 0)
        none.append(try Self.entry(1))
        #expect(none.entries.isEmpty)
        #expect(NotificationHistory(capacity: 1_000_000).capacity == NotificationHistory.maxCapacity)
        #expect(NotificationHistory(capacity: -4).capacity == 0)
    }

    @Test func everyClosedNotificationsRequestReachesThePublisher() throws {
        var table = NotificationTable(capacity: 2)
        let first = table.notify(try NotificationsUnitTests.notify("one"), sender: ":1.1")
        let second = table.notify(try NotificationsUnitTests.notify("two"), sender: ":1.1")
        // A third ends the oldest before any publish: its request still goes to the history.
        _ = table.notify(try NotificationsUnitTests.notify("three"), sender: ":1.1")
        _ = table.close(second, requestedBy: ":1.1")
        let (changes, closed) = table.takePendingWithClosed()
        #expect(changes.contains(.close(first, .expired)) && changes.contains(.close(second, .closedByCall)))
        #expect(closed[first]?.summary == "one" && closed[second]?.summary == "two" && closed.count == 2)
        // A press withdraws before its close is announced: the request waits for the announce.
        let third: UInt32 = 3
        let withdrawn = table.withdraw(third)
        #expect(withdrawn)
        let beforeAnnounce = table.takePendingWithClosed().closed
        #expect(beforeAnnounce.isEmpty)
        table.announceClose(third, .dismissed)
        let afterAnnounce = table.takePendingWithClosed().closed
        #expect(afterAnnounce[third]?.summary == "three")
    }

    @Test(arguments: [
        (#"{"id":0,"appName":"a","appIcon":"","summary":"s","body":"","urgency":1,"reason":1,"closedAt":0}"#, "id: 0"),
        (#"{"id":1,"appName":"a","appIcon":"","summary":"s","body":"","urgency":3,"reason":1,"closedAt":0}"#, "urgency: 3"),
        (#"{"id":1,"appName":"a","appIcon":"","summary":"s","body":"","urgency":1,"reason":9,"closedAt":0}"#, "reason: 9"),
        (#"{"id":1,"appName":"a","appIcon":"","summary":"s","body":"","urgency":1,"reason":1,"closedAt":-5}"#, "closedAt"),
        ("{\"id\":1,\"appName\":\"a\",\"appIcon\":\"\",\"summary\":\"\(String(repeating: "x", count: 300))\",\"body\":\"\",\"urgency\":1,\"reason\":1,\"closedAt\":0}", "summary: over 256"),
    ])
    func aStoredEntryOutsideNotifysBoundsIsRefused(json: String, problem: String) throws {
        let content = try JSONDecoder().decode(HistoryFileContent.self, from: Data("{\"format\":\"nook-notifications-history\",\"version\":1,\"entries\":[\(json)]}".utf8))
        #expect(content.problem?.contains(problem) == true, "\(String(describing: content.problem))")
    }

    @Test func theStoreWritesA0600FileInA0700DirectoryAndReadsItBack() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nook-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = HistoryStore(directory: root.path + "/nook", fileName: "h.json")
        let content = HistoryFileContent(entries: [try Self.entry(7, "kept")])
        try store.save(content)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(((try FileManager.default.attributesOfItem(atPath: store.directory))[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        guard case .loaded(let read) = store.load(HistoryFileContent.self, validate: \.problem) else { Issue.record("not loaded"); return }
        #expect(read == content)
        #expect(try Self.entry(7, "kept").request.summary == "kept")
    }

    @Test func aDirectoryOpenToOthersIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nook-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(atPath: root.path + "/nook", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let store = HistoryStore(directory: root.path + "/nook", fileName: "h.json")
        #expect(throws: HistoryStore.Failure.self) { try store.save(HistoryFileContent(entries: [])) }
        guard case .refused(let why) = store.load(HistoryFileContent.self, validate: \.problem) else { Issue.record("not refused"); return }
        #expect(why.contains("open to other users"))
    }

    @Test func aFIFOInPlaceOfTheFileIsMovedAsideUnread() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nook-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(atPath: root.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = HistoryStore(directory: root.path, fileName: "h.json")
        #expect(mkfifo(store.path, 0o600) == 0)
        guard case .corrupt(let reason, let moved?) = store.load(HistoryFileContent.self, validate: \.problem) else { Issue.record("not set aside"); return }
        #expect(reason.contains("not a regular file"))
        #expect(moved.hasPrefix(store.path + ".corrupt-"))
    }
}
