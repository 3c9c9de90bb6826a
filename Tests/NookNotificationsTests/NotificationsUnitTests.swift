import Foundation
import NookBus
import NookTestSupport
import Testing

@testable import NookNotifications

/// The bridge's pure parts: markup to plain text, Notify arguments read and bounded, the
/// table's ids, replacement, eviction and coalescing, and the PNG writer (read back by
/// gdk-pixbuf, as the renderer reads it).
struct NotificationsUnitTests {
    static func notify(
        _ summary: String = "s", body: String = "", replaces: UInt32 = 0, actions: [String] = [], hints: [String: DBusValue] = [:], timeout: Int32 = -1
    ) throws -> NotificationRequest {
        try NotificationRequest(arguments: [
            .string("app"), .uint32(replaces), .string(""), .string(summary), .string(body),
            .array(element: "s", actions.map { .string($0) }),
            .dictionary(key: "s", value: "v", hints.map { .init(.string($0.key), .variant($0.value)) }), .int32(timeout),
        ])
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("<b>bold</b> and <i>it</i> <u>u</u>", "bold and it u"),
        ("<a href=\"https://x\">link</a>", "link"),
        ("a &amp; b &lt;c&gt; &#65;&#x42; &nope; &", "a & b <c> AB &nope; &"),
        ("broken <b unclosed", "broken <b unclosed"),
        ("a < b > c", "a c"),
        ("two\n\n\n\nlines   spaced", "two\n\nlines spaced"),
        ("<img src=\"x.png\" alt=\"pic\"/>after", "after"),
    ])
    func markupBecomesPlainText(input: String, expected: String) {
        #expect(NotificationMarkup.plainText(input) == expected)
    }

    /// The shortcut for text that is already plain gives what reading it character by
    /// character gives, over random texts of markup, entities, spaces, controls and non-ASCII.
    @Test func plainTextShortcutGivesTheWorkedOutText() {
        let pieces = ["a", "Z", "7", " ", "  ", "\t", "\n", "\r\n", "<", ">", "<b>", "&", "&amp;", ";", "#", "é", "\u{00A0}", "\u{7F}", "step 12"]
        var generator = SystemRandomNumberGenerator()
        var shortcuts = 0
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let limit = Int.random(in: 0...12, using: &generator)
            #expect(NotificationMarkup.plainText(text, maxBytes: limit) == NotificationMarkup.workedOut(text, maxBytes: limit, maxInputBytes: 64 * 1024),
                    "\(text.debugDescription) within \(limit)")
            #expect(NotificationMarkup.plainText(text) == NotificationMarkup.workedOut(text, maxBytes: 1024, maxInputBytes: 64 * 1024), "\(text.debugDescription)")
            #expect(NotificationMarkup.collapsed(text) == NotificationMarkup.collapsedWorkedOut(text), "\(text.debugDescription)")
            if NotificationMarkup.isPlain(text, maxBytes: 1024, markup: true) { shortcuts += 1 }
        }
        // Both ways were taken often enough to compare.
        #expect(shortcuts > 100 && shortcuts < 4_900, "\(shortcuts) of 5000 texts took the shortcut")
    }

    @Test func aMebibyteBodyIsCutOnACharacterBoundary() {
        let body = String(repeating: "é", count: 600_000)
        let text = NotificationMarkup.plainText(body, maxBytes: 1024)
        #expect(text.utf8.count <= 1024)
        #expect(text.hasSuffix("…"))
        #expect(text.dropLast().allSatisfy { $0 == "é" })
    }

    @Test func actionsAreCappedAndDefaultIsKeptApart() throws {
        var actions = ["default", "Open"]
        for index in 0..<10_000 { actions += ["k\(index)", "Label \(index)"] }
        let request = try Self.notify(actions: actions + ["odd"])
        #expect(request.actions.map(\.key) == (0..<8).map { "k\($0)" })
        #expect(request.hasDefaultAction)
        #expect(request.problems.contains { $0.contains("odd count") })
    }

    @Test func hintsAcceptAnyIntegerTypeAndIgnoreWrongOnes() throws {
        let request = try Self.notify(hints: ["urgency": .uint32(2), "value": .int32(150), "resident": .bool(true)])
        #expect(request.urgency == .critical)
        #expect(request.progress == 100)
        #expect(request.resident)
        let wrong = try Self.notify(hints: ["urgency": .string("high"), "value": .string("x"), "image-data": .int32(3)])
        #expect(wrong.urgency == .normal)
        #expect(wrong.progress == nil)
        #expect(wrong.imageData == nil)
        #expect(wrong.problems.count == 2, "\(wrong.problems)")
    }

    @Test func expiryFollowsTimeoutAndUrgency() throws {
        var settings = BridgeSettings(imageDirectory: "/tmp")
        settings.defaultTimeout = .seconds(7)
        #expect(settings.expiry(of: try Self.notify(timeout: -1)) == .seconds(7))
        #expect(settings.expiry(of: try Self.notify(timeout: 0)) == nil)
        #expect(settings.expiry(of: try Self.notify(timeout: 1500)) == .milliseconds(1500))
        #expect(settings.expiry(of: try Self.notify(timeout: .max)) == .milliseconds(86_400_000))
        #expect(settings.expiry(of: try Self.notify(hints: ["urgency": .byte(2)], timeout: 1500)) == nil)
    }

    @Test func theTableReplacesInPlaceEvictsOldestAndCoalesces() throws {
        var table = NotificationTable(capacity: 2)
        let first = table.notify(try Self.notify("a"))
        #expect(first == 1)
        #expect(table.notify(try Self.notify("a2", replaces: 1)) == 1)
        // Replacing an id that is not live takes a new one.
        #expect(table.notify(try Self.notify("b", replaces: 77)) == 2)
        #expect(table.notify(try Self.notify("c")) == 3)
        #expect(table.order == [2, 3])
        let pending = table.takePending()
        // 1 was shown twice then evicted: only its close is left, with reason 1.
        #expect(pending.count == 3)
        #expect(pending.count == 3 && pending[1] == .close(1, .expired))
        #expect(table.takePending().isEmpty)
        let closed = table.close(2, .closedByCall)
        let closedAgain = table.close(2, .closedByCall)
        #expect(closed && !closedAgain)
        // An expiry timer of an older generation does nothing.
        let generation = table.entries[3]!.generation
        _ = table.notify(try Self.notify("c2", replaces: 3))
        let expired = table.expire(3, generation: generation)
        #expect(!expired)
    }

    /// A press withdraws the notification before its `ActionInvoked`: a close that answers
    /// the signal finds nothing, and the press's own close (reason 2) is the one announced.
    @Test func aWithdrawnNotificationIsClosedOnlyByItsAnnouncement() throws {
        var table = NotificationTable(capacity: 4)
        let id = table.notify(try Self.notify("update", actions: ["ok", "OK"]))
        _ = table.takePending()
        let withdrawn = table.withdraw(id)
        let closedByCall = table.close(id, .closedByCall)
        #expect(withdrawn && !closedByCall)
        #expect(table.takePending().isEmpty, "nothing is announced before the signal")
        table.announceClose(id, .dismissed)
        #expect(table.takePending() == [.close(id, .dismissed)])
        #expect(table.entries.isEmpty && table.order.isEmpty)
    }

    @Test func criticalNotificationsAreEvictedLast() throws {
        var table = NotificationTable(capacity: 2)
        _ = table.notify(try Self.notify("critical", hints: ["urgency": .byte(2)]))
        _ = table.notify(try Self.notify("normal"))
        _ = table.notify(try Self.notify("newer"))
        #expect(table.order == [1, 3])
    }

    @Test func whenAllAreCriticalTheOldestGoes() throws {
        // Every live one critical at capacity: the oldest is ended, not the new one (which
        // once looped forever: picking the new id as the victim closed nothing).
        var table = NotificationTable(capacity: 2)
        for name in ["first", "second", "third"] { _ = table.notify(try Self.notify(name, hints: ["urgency": .byte(2)])) }
        #expect(table.order == [2, 3])
        #expect(table.takePending().contains(.close(1, .expired)))
    }

    @Test func aReservedIDIsTheReplyAndTheRequestFollows() throws {
        var table = NotificationTable(capacity: 4)
        let first = table.reserveID(replacing: 0, appName: "app")
        table.notify(try Self.notify("one"), as: first, sender: ":1.5")
        // A live replaces_id of the same app is kept; one that is not live, or another app's,
        // gets a new id.
        #expect(table.reserveID(replacing: first, appName: "app") == first)
        #expect(table.reserveID(replacing: 99, appName: "app") == 2)
        #expect(table.reserveID(replacing: first, appName: "other") == 3)
        #expect(table.order == [1])
    }

    /// docs/security.md: only the connection that sent a notification closes it.
    @Test func onlyTheSenderClosesANotification() throws {
        var table = NotificationTable(capacity: 4)
        let id = table.notify(try Self.notify("one"), sender: ":1.5")
        let byAnother = table.close(id, requestedBy: ":1.6")
        #expect(!byAnother)
        #expect(table.order == [id])
        let bySender = table.close(id, requestedBy: ":1.5")
        #expect(bySender)
        let pending = table.takePending()
        #expect(pending.last == .close(id, .closedByCall))
    }

    @Test func actionIDsAreTheKeysWhenValid() {
        #expect(NotificationViews.actionID("ok", index: 0) == "ok")
        #expect(NotificationViews.actionID("inline reply", index: 3) == "action-3")
        #expect(NotificationViews.actionID("ünï", index: 1) == "action-1")
    }

    @Test func badImageDataIsRefusedWithAReason() {
        #expect(throws: RawImage.Problem.self) {
            try RawImage(width: 0, height: 1, rowstride: 4, hasAlpha: true, bitsPerSample: 8, channels: 4, pixels: [])
        }
        #expect(throws: RawImage.Problem.self) {
            try RawImage(width: 2, height: 2, rowstride: 8, hasAlpha: true, bitsPerSample: 8, channels: 4, pixels: [0, 1, 2])
        }
        #expect(throws: RawImage.Problem.self) {
            try RawImage(width: 2, height: 2, rowstride: 6, hasAlpha: true, bitsPerSample: 8, channels: 3, pixels: .init(repeating: 0, count: 12))
        }
    }

    /// gdk-pixbuf (the renderer's loader) reads the written PNG back with the same pixels.
    @Test func imageDataBecomesAPNGThatGdkPixbufReads() async throws {
        let width = 300, height = 250
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += [UInt8(x % 256), UInt8(y % 256), 77, 200] } }
        let image = try RawImage(width: Int32(width), height: Int32(height), rowstride: Int32(width * 4), hasAlpha: true,
                                 bitsPerSample: 8, channels: 4, pixels: pixels)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nook-png-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(image.png).write(to: file)
        let result = try await Tools.run("/usr/bin/python3", ["-c", """
            import sys, gi
            gi.require_version("GdkPixbuf", "2.0")
            from gi.repository import GdkPixbuf
            p = GdkPixbuf.Pixbuf.new_from_file(sys.argv[1])
            data = p.get_pixels()
            o = 140 * p.get_rowstride() + 260 * 4
            print(p.get_width(), p.get_height(), p.get_has_alpha(), list(data[o:o + 4]))
            """, file.path])
        #expect(result.stdout == "300 250 True [4, 140, 77, 200]\n", "\(result.stderr)")
    }
}
