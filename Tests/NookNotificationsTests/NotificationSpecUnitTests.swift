import Foundation
import NookBus
import NookCore
import Testing

@testable import NookNotifications

/// The spec's body markup read into styled runs, the other hints read and bounded, the
/// synchronous hint's replacement in the table, desktop entries, and the capabilities.
struct NotificationSpecUnitTests {
    static func request(app: String = "app", body: String = "", hints: [String: DBusValue] = [:]) throws -> NotificationRequest {
        try NotificationRequest(arguments: [
            .string(app), .uint32(0), .string(""), .string("s"), .string(body), .array(element: "s", []),
            .dictionary(key: "s", value: "v", hints.map { .init(.string($0.key), .variant($0.value)) }), .int32(-1),
        ])
    }

    @Test func boldItalicUnderlineAndLinksBecomeStyledRuns() {
        let lines = BodyMarkup.paragraphs("All <b>42</b> tests <i>passed</i> <u>today</u>,<br>see <a href=\"https://example.com/log?a=1&amp;b=2\">the log</a>.")
        #expect(lines == [
            [BodyRun(text: "All"), BodyRun(text: " 42", bold: true), BodyRun(text: " tests"), BodyRun(text: " passed", italic: true),
             BodyRun(text: " today", underline: true), BodyRun(text: ",")],
            [BodyRun(text: "see"), BodyRun(text: " the log", link: "https://example.com/log?a=1&b=2"), BodyRun(text: ".")],
        ])
    }

    @Test func aBodyWithNothingStyledHasNoRuns() {
        #expect(BodyMarkup.paragraphs("plain text, no tags").isEmpty)
        #expect(BodyMarkup.paragraphs("a <unknown>tag</unknown> &amp; <img src=\"x\" alt=\"y\"/>").isEmpty)
    }

    @Test func unknownTagsAreDroppedAndTheirTextKept() {
        #expect(BodyMarkup.paragraphs("<span>one</span> <b>two</b> <font color=\"red\">three</font>")
            == [[BodyRun(text: "one"), BodyRun(text: " two", bold: true), BodyRun(text: " three")]])
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "ftp://x/y", "https://", "https://a b", "/usr/bin/xterm", "-e"])
    func onlyHttpHttpsAndMailtoLinksAreLinks(url: String) {
        let lines = BodyMarkup.paragraphs("<a href=\"\(url)\">here</a> <b>x</b>")
        #expect(lines.first?.first?.link == nil, "\(url) read as a link: \(lines)")
        #expect(!BodyMarkup.isOpenable(url))
    }

    @Test func mailtoAndHttpLinksAreOpenable() {
        #expect(BodyMarkup.isOpenable("mailto:someone@example.com"))
        #expect(BodyMarkup.isOpenable("http://example.com"))
        #expect(BodyMarkup.isOpenable("HTTPS://example.com/x"))
        #expect(!BodyMarkup.isOpenable("https://" + String(repeating: "a", count: BodyMarkup.maxLinkBytes)))
    }

    /// 10,000 nested tags: at most `maxDepth` are open at once, the text is all there, and the
    /// closes of the dropped ones do not close the kept ones.
    @Test func deepNestingIsBoundedAndKeepsTheText() {
        let depth = 10_000
        let markup = String(repeating: "<i>", count: depth) + "deep" + String(repeating: "</i>", count: depth - 1) + " <b>bold</b>"
        let lines = BodyMarkup.paragraphs(markup, maxBytes: 1024, maxInputBytes: 1 << 20)
        #expect(lines.flatMap { $0 }.map(\.text).joined() == "deep bold")
        #expect(lines == [[BodyRun(text: "deep", italic: true), BodyRun(text: " bold", bold: true, italic: true)]])
    }

    @Test func runsAreBoundedInNumber() {
        let markup = String(repeating: "<b>b</b> i ", count: 500)
        let runs = BodyMarkup.paragraphs(markup).flatMap { $0 }
        #expect(runs.count == BodyMarkup.maxRuns)
        #expect(runs.map(\.text).joined() == NotificationMarkup.plainText(markup))
    }

    /// The runs' text, lines joined with newlines, is the plain text `body` holds, over
    /// random markup (the history and the peek show that text).
    @Test func runsJoinedAreThePlainText() {
        let pieces = ["a", "Z", " ", "  ", "\t", "\n", "<b>", "</b>", "<i>", "</i>", "<u>", "</u>", "<a href=\"https://x.org\">", "</a>",
                      "<br>", "<p>", "<x>", "&amp;", "&lt;", "<", ">", "é", "\u{00A0}", "word"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let limit = Int.random(in: 0...24, using: &generator)
            let lines = BodyMarkup.paragraphs(text, maxBytes: limit)
            guard !lines.isEmpty else { continue }
            let joined = lines.map { $0.map(\.text).joined() }.joined(separator: "\n")
            #expect(joined == NotificationMarkup.plainText(text, maxBytes: limit), "\(text.debugDescription) within \(limit): \(lines)")
        }
    }

    @Test func theRequestCarriesItsRunsAndItsPlainBody() throws {
        let request = try Self.request(body: "<b>Bold</b> move")
        #expect(request.body == "Bold move")
        #expect(request.bodyRuns == [[BodyRun(text: "Bold", bold: true), BodyRun(text: " move")]])
    }

    /// Issue 40, part 4: the peek draws the body's markup too, not only the expanded view: its
    /// first line as styled runs (bold measured bold, a link underlined in the link colour but
    /// no control of its own, since a press on the peek is the notification's `default`).
    @Test func thePeekDrawsTheBodysMarkup() throws {
        let request = try Self.request(body: "<b>Bold</b> move, <i>then</i> <a href=\"https://example.com\">the log</a><br>second line")
        let content = NotificationContent(id: 1, request: request, iconURI: "", imageURI: nil, dismissDate: nil, invoke: { _ in })
        let fields = NotificationViews.activity(content).changes(since: nil, sequence: 1)
        guard case .node(let peek)? = fields["peek"] else { Issue.record("no peek view"); return }
        var texts: [RawNode] = []
        var actions: [String] = []
        func walk(_ node: RawNode) {
            if node.kind == "text" { texts.append(node) }
            if case .string(let action)? = node.props["action"] { actions.append(action) }
            node.children.forEach(walk)
        }
        walk(peek)
        func node(_ part: String) -> RawNode? {
            texts.first { if case .string(let text)? = $0.props["text"] { text.contains(part) } else { false } }
        }
        #expect(node("Bold")?.props["font_weight"] == .string("bold"), "\(texts.map(\.props))")
        #expect(node("move")?.props["font_weight"] == nil)
        #expect(node("then")?.props["classes"] == .string("italic"))
        let link = node("the log")
        #expect(link?.props["classes"] == .string("underline"), "\(texts.map(\.props))")
        // A second line follows: the first ends with an ellipsis.
        #expect(texts.last?.props["text"] == .string("the log\u{2026}"), "\(texts.map(\.props))")
        #expect(link?.props["color"] != nil)
        #expect(!texts.contains { $0.props["text"] == .string("second line") }, "the peek shows the first line only")
        #expect(!actions.contains { $0.hasPrefix("link-") }, "no link is a control in the peek: \(actions)")
    }

    @Test func theSpecsHintsAreReadAndBounded() throws {
        let request = try Self.request(hints: [
            "category": .string("email.arrived"), "desktop-entry": .string("org.example.Mail"), "transient": .bool(true),
            "x-canonical-private-synchronous": .string("volume"), "sound-file": .string("/usr/share/sounds/x.oga"),
            "sound-name": .string("message-new-email"), "suppress-sound": .byte(1),
        ])
        let hints = request.specHints
        #expect(hints.category == "email.arrived")
        #expect(hints.desktopEntry == "org.example.Mail")
        #expect(hints.transient)
        #expect(hints.synchronous == "volume")
        #expect(hints.soundFile == "/usr/share/sounds/x.oga")
        #expect(hints.soundName == "message-new-email")
        #expect(hints.suppressSound)
        #expect(request.problems.isEmpty, "\(request.problems)")
    }

    @Test func badHintsAreIgnoredAndSaid() throws {
        let request = try Self.request(hints: [
            "desktop-entry": .string("../../etc/passwd"), "sound-name": .string("a/b"), "category": .int32(3),
            "x-dunst-stack-tag": .string(String(repeating: "v", count: NotificationHints.maxSynchronousBytes + 1)),
        ])
        #expect(request.specHints == NotificationHints())
        #expect(request.problems.count == 4, "\(request.problems)")
    }

    @Test func theSynchronousHintReplacesTheSameAppsNotificationInPlace() throws {
        var table = NotificationTable()
        let volume = try Self.request(app: "volume", hints: ["x-canonical-private-synchronous": .string("volume")])
        let first = table.notify(volume)
        #expect(table.reserveID(replacing: 0, appName: "volume", synchronous: "volume") == first)
        table.notify(volume, as: first)
        // Another app with the same value, or the same app with another, gets a new id.
        let other = table.reserveID(replacing: 0, appName: "other", synchronous: "volume")
        #expect(other != first)
        table.notify(try Self.request(app: "other"), as: other)
        #expect(table.reserveID(replacing: 0, appName: "volume", synchronous: "brightness") != first)
        // Read from Notify's hints before the reply.
        #expect(NotificationHints.synchronousValue(in: .dictionary(key: "s", value: "v", [.init(.string("x-dunst-stack-tag"), .variant(.string("vol")))])) == "vol")
        #expect(NotificationHints.synchronousValue(in: .dictionary(key: "s", value: "v", [.init(.string("urgency"), .variant(.byte(1)))])) == nil)
    }

    @Test func aDesktopEntryGivesItsNameAndIconAndAFIFOIsSkipped() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nook-desktop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("one/applications"), second = root.appendingPathComponent("two/applications")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Example Mail\nName[fr]=Courrier\nIcon=mail-send\n[Desktop Action New]\nName=New\n"
            .write(to: second.appendingPathComponent("org.example.Mail.desktop"), atomically: true, encoding: .utf8)
        #expect(mkfifo(first.appendingPathComponent("org.example.Mail.desktop").path, 0o600) == 0)
        let entry = DesktopEntry.find("org.example.Mail", in: [first.path, second.path])
        #expect(entry == DesktopEntry(name: "Example Mail", icon: "mail-send"))
        #expect(DesktopEntry.find("org.example.None", in: [first.path, second.path]) == nil)
        // Cached once found: read again from the cache after the file is gone; never cached when missing.
        let cache = DesktopEntryCache()
        #expect(cache.find("org.example.Mail", in: [first.path, second.path]) == entry)
        try FileManager.default.removeItem(at: second.appendingPathComponent("org.example.Mail.desktop"))
        #expect(cache.find("org.example.Mail", in: [first.path, second.path]) == entry)
        #expect(cache.find("org.example.Later", in: [second.path]) == nil)
        try "[Desktop Entry]\nName=Later\n".write(to: second.appendingPathComponent("org.example.Later.desktop"), atomically: true, encoding: .utf8)
        #expect(cache.find("org.example.Later", in: [second.path])?.name == "Later")
        #expect(DesktopEntry.directories(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": "/a:relative:/b"])
            == ["/home/u/.local/share/applications", "/a/applications", "/b/applications"])
    }

    @Test func capabilitiesNameWhatIsDrawnAndDone() {
        #expect(NotificationsInterface.capabilities(persistence: true, sound: true)
            == ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence", "sound"])
        #expect(NotificationsInterface.capabilities(persistence: false, sound: false)
            == ["actions", "body", "body-hyperlinks", "body-markup", "icon-static"])
    }

    /// A link's underline starts at its first word: the space before it ends the run before.
    @Test func anUnderlinedRunsLeadingSpaceIsDrawnAsANoBreakSpaceBeforeIt() {
        #expect(BodyText.drawn([BodyRun(text: "see"), BodyRun(text: " the log", link: "https://x.org"), BodyRun(text: " now", bold: true)])
            == [BodyRun(text: "see\u{00A0}"), BodyRun(text: "the log", link: "https://x.org"), BodyRun(text: " now", bold: true)])
    }

    @Test func aClientsActionKeyNeverTakesALinksActionID() {
        #expect(NotificationViews.actionID("link-1", index: 3) == "action-3")
        #expect(NotificationViews.actionID("ok", index: 0) == "ok")
    }
}
