import Foundation
import NookBus
import NookTestSupport
import Testing

@testable import NookNotifications

/// The rules file's parser and matcher (nook-notifications-rules(5)), pure: every key, every
/// range, the line and key a mistake is refused with, and how sections combine.
struct NotificationRulesUnitTests {
    typealias Subject = NotificationRules.Subject

    static func rules(_ text: String) throws -> NotificationRules { try NotificationRules(parsing: text) }

    /// The mistake `text` is refused with.
    static func refusal(_ text: String) -> RulesError? {
        do {
            _ = try NotificationRules(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func everySettingIsReadWithItsValues() throws {
        let rules = try Self.rules("""
            # a comment, then a blank line

            [app-name=Spotify]
            timeout=2.5
            no-peek=yes
            ignore=no
            urgency=low
            colour=#ff8800
            sound=message-new-instant
            history=no
            """)
        #expect(rules.sections.count == 1)
        let section = try #require(rules.sections.first)
        #expect(section.line == 3)
        #expect(section.criteria == [NotificationRules.Criterion(field: .appName, value: "Spotify", isGlob: false)])
        let s = section.settings
        #expect(s.timeout == 2.5 && s.noPeek == true && s.ignore == false && s.urgency == .low)
        #expect(s.colour == "#FF8800" && s.sound == .named("message-new-instant") && s.history == false)
    }

    @Test(arguments: [
        ("yes", true), ("no", false), ("true", true), ("false", false), ("1", true), ("0", false), ("on", true), ("off", false), ("YES", true),
    ])
    func booleansTakeTheUsualSpellings(_ text: String, _ value: Bool) throws {
        let rules = try Self.rules("[*]\nno-peek=\(text)\nignore=\(text)\nhistory=\(text)")
        #expect(rules.sections[0].settings.noPeek == value && rules.sections[0].settings.ignore == value && rules.sections[0].settings.history == value)
    }

    @Test func timeoutIsZeroToADayInSeconds() throws {
        #expect(try Self.rules("[*]\ntimeout=0").sections[0].settings.timeout == 0)
        #expect(try Self.rules("[*]\ntimeout=86400").sections[0].settings.timeout == 86_400)
        for bad in ["-1", "86401", "nan", "inf", "1e9", "ten", ""] {
            let error = Self.refusal("[*]\ntimeout=\(bad)")
            #expect(error?.line == 2 && error?.key == "timeout", "\(bad): \(String(describing: error))")
            #expect(error?.description.contains("0...86400") == true)
        }
    }

    @Test func urgencyColourAndSoundHaveTheirOwnValues() throws {
        #expect(try Self.rules("[*]\nurgency=critical").sections[0].settings.urgency == .critical)
        #expect(try Self.rules("[*]\ncolour=red").sections[0].settings.colour == "#FF3B30")
        #expect(try Self.rules("[*]\ncolor=#11223344").sections[0].settings.colour == "#11223344")
        #expect(try Self.rules("[*]\nsound=off").sections[0].settings.sound == .off)
        #expect(try Self.rules("[*]\nsound=\"bell\"").sections[0].settings.sound == .named("bell"))
        #expect(Self.refusal("[*]\nurgency=urgent")?.key == "urgency")
        for bad in ["#12345", "#1234567", "#GGHHII", "rouge", ""] {
            #expect(Self.refusal("[*]\ncolour=\(bad)")?.key == "colour", "\(bad)")
        }
        for bad in ["a/b", "", String(repeating: "s", count: 65), "two words"] {
            #expect(Self.refusal("[*]\nsound=\(bad)")?.key == "sound", "\(bad)")
        }
        #expect(try Self.rules("[*]\nsound=\(String(repeating: "s", count: 64))").sections[0].settings.sound != nil)
    }

    @Test func mistakesNameTheirLineAndKey() {
        #expect(Self.refusal("\n\n[app-name=A]\nvolume=3") == RulesError(line: 4, key: "volume", "unknown setting (timeout, no-peek, ignore, urgency, colour, sound, history)"))
        #expect(Self.refusal("timeout=3\n[*]")?.line == 1)
        #expect(Self.refusal("timeout=3\n[*]")?.key == "timeout")
        #expect(Self.refusal("[*]\nno-peek=yes\nno-peek=no")?.line == 3)
        #expect(Self.refusal("[*]\njust words")?.line == 2)
        #expect(Self.refusal("[app-name=A\n")?.line == 1)
        #expect(Self.refusal("[]")?.line == 1)
        let unknown = Self.refusal("# x\n[colour=red]\n")
        #expect(unknown?.line == 2 && unknown?.key == "colour", "\(String(describing: unknown))")
        #expect(Self.refusal("[app-name]")?.key == "app-name")
        #expect(Self.refusal("[urgency~=crit*]")?.key == "urgency")
        #expect(Self.refusal("[urgency=high]")?.key == "urgency")
        #expect(Self.refusal("[summary=\"open]")?.key == "summary")
        #expect(Self.refusal("[app-name=A app-name=B]")?.key == "app-name")
        #expect(Self.refusal("[*]\nignore=perhaps")?.description == "line 2: key 'ignore': 'perhaps' is not yes or no")
    }

    @Test func theFileAndItsPartsAreBounded() throws {
        let big = String(repeating: "#\n", count: NotificationRules.maxFileBytes / 2 + 1)
        #expect(Self.refusal(big)?.line == 0)
        #expect(Self.refusal("[*]\n#" + String(repeating: "x", count: NotificationRules.maxLineBytes))?.line == 2)
        let many = (0...NotificationRules.maxSections).map { "[app-name=a\($0)]\nignore=yes\n" }.joined()
        #expect(Self.refusal(many)?.line == 2 * NotificationRules.maxSections + 1)
        #expect(try Self.rules(String(many.split(separator: "\n").dropLast(2).joined(separator: "\n"))).sections.count == NotificationRules.maxSections)
        let value = String(repeating: "v", count: NotificationRules.maxValueBytes + 1)
        #expect(Self.refusal("[summary=\(value)]")?.key == "summary")
        let criteria = NotificationRules.Field.allCases.map { "\($0.rawValue)=\($0 == .urgency ? "low" : "x")" }.joined(separator: " ")
        #expect(try Self.rules("[\(criteria)]").sections[0].criteria.count == NotificationRules.Field.allCases.count)
        // Glob patterns: 2048 bytes in all, whatever the sections.
        let glob = String(repeating: "*", count: 256)
        let eight = (1...8).map { _ in "[summary~=\(glob)]\n" }.joined()
        #expect(try Self.rules(eight).sections.count == 8)
        let nine = Self.refusal(eight + "[body=exact]\n[body~=*x]\n")
        #expect(nine?.line == 10 && nine?.key == "body", "\(String(describing: nine))")
        // CRLF files read as LF ones, with the same line numbers.
        #expect(Self.refusal("[*]\r\nno-peek=yes\r\nbad")?.line == 3)
    }

    @Test func criteriaMatchExactlyOrAsCaseInsensitiveGlobs() throws {
        let rules = try Self.rules("""
            [app-name="Firefox Web Browser" urgency=low]
            ignore=yes
            [summary~=*password*]
            history=no
            [body~="build ?? failed"]
            colour=red
            [category=email.arrived desktop-entry=org.gnome.Evolution]
            no-peek=yes
            """)
        #expect(rules.settings(for: Subject(appName: "Firefox Web Browser", urgency: .low)).ignore == true)
        #expect(rules.settings(for: Subject(appName: "Firefox Web Browser", urgency: .normal)).ignore == nil)
        #expect(rules.settings(for: Subject(appName: "firefox web browser", urgency: .low)).ignore == nil, "= is exact")
        #expect(rules.settings(for: Subject(summary: "Your PASSWORD expires")).history == false)
        #expect(rules.settings(for: Subject(summary: "password")).history == false)
        #expect(rules.settings(for: Subject(summary: "passwor")).history == nil)
        #expect(rules.settings(for: Subject(body: "Build 42 failed")).colour == "#FF3B30")
        #expect(rules.settings(for: Subject(body: "Build 4 failed")).colour == nil)
        #expect(rules.settings(for: Subject(category: "email.arrived", desktopEntry: "org.gnome.Evolution")).noPeek == true)
        #expect(rules.settings(for: Subject(category: "email.arrived")).noPeek == nil)
        #expect(Glob.matches(pattern: "*a*a*a*a*a*b", String(repeating: "a", count: 256)) == false)
        #expect(Glob.matches(pattern: "", "") && !Glob.matches(pattern: "", "x") && Glob.matches(pattern: "*", ""))
    }

    @Test func laterMatchingSectionsOverrideEarlierOnes() throws {
        let rules = try Self.rules("""
            [*]
            timeout=5
            sound=message
            [app-name=Chat]
            timeout=30
            [app-name=Chat urgency=critical]
            sound=off
            """)
        let chat = rules.settings(for: Subject(appName: "Chat", urgency: .critical))
        #expect(chat.timeout == 30 && chat.sound == .off)
        let other = rules.settings(for: Subject(appName: "Mail"))
        #expect(other.timeout == 5 && other.sound == .named("message"))
    }

    @Test func applyingRulesSetsUrgencyTimeoutAndEffects() throws {
        let rules = try Self.rules("""
            [app-name=app]
            urgency=critical
            timeout=1.5
            no-peek=yes
            colour=blue
            [urgency=critical]
            ignore=yes
            """)
        var request = try NotificationsUnitTests.notify("hi")
        // Criteria see the notification as sent: the second section (critical) does not match.
        let ignored = rules.apply(to: &request, subject: Subject(appName: "app", urgency: request.urgency))
        #expect(!ignored)
        #expect(request.urgency == .critical && request.expireTimeout == 1500)
        #expect(request.ruleEffects.noPeek && request.ruleEffects.colour == "#007AFF" && request.ruleEffects.keepsInHistory)
        // Ignored ones stay out of the history unless a rule says history=yes.
        var dropped = try NotificationsUnitTests.notify("x")
        #expect(try Self.rules("[*]\nignore=yes").apply(to: &dropped, subject: Subject()))
        #expect(!dropped.ruleEffects.keepsInHistory)
        var kept = try NotificationsUnitTests.notify("x")
        #expect(try Self.rules("[*]\nignore=yes\nhistory=yes").apply(to: &kept, subject: Subject()))
        #expect(kept.ruleEffects.keepsInHistory)
    }

    @Test func theTableDropsAnIgnoredNotificationAndAnnouncesItsClose() throws {
        var table = NotificationTable(capacity: 1)
        let live = table.notify(try NotificationsUnitTests.notify("live"), sender: ":1.1")
        _ = table.takePendingWithClosed()
        let id = table.reserveID(replacing: 0, appName: "app")
        table.drop(try NotificationsUnitTests.notify("ignored"), as: id)
        // Never live, so it ends nothing to make room (the table holds one).
        #expect(table.entries.keys.sorted() == [live])
        let (changes, closed) = table.takePendingWithClosed()
        #expect(changes == [.close(id, .dismissed)])
        #expect(closed[id]?.summary == "ignored")
    }

    @Test func theRulesFileIsReadOnlyAsARegularBoundedFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nook-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("notifications.rules").path
        #expect(try RulesFile.load(path).sections.isEmpty, "no file: no rules")
        try "[app-name=A]\nignore=yes\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try RulesFile.load(path).sections.count == 1)
        let link = root.appendingPathComponent("link.rules").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try RulesFile.load(link).sections.count == 1, "a link to a regular file is followed")
        let fifo = root.appendingPathComponent("fifo.rules").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: RulesError.self) { try RulesFile.load(fifo) }
        #expect(throws: RulesError.self) { try RulesFile.load(root.path) }
        try Data(repeating: 0x23, count: NotificationRules.maxFileBytes + 1).write(to: URL(fileURLWithPath: path))
        #expect(throws: RulesError.self) { try RulesFile.load(path) }
        try Data([0xFF, 0xFE, 0x5B]).write(to: URL(fileURLWithPath: path))
        #expect(throws: RulesError.self) { try RulesFile.load(path) }
        #expect(RulesFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/nook/notifications.rules")
        #expect(RulesFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/nook/notifications.rules")
    }

    /// docs/notifications.md's example file is one the bridge takes, and does what it says.
    @Test func theDocumentedExampleFileParses() throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: checkout.appendingPathComponent("docs/notifications.md"), encoding: .utf8)
        let rulesSection = try #require(page.range(of: "## Rules"))
        let start = try #require(page.range(of: "```ini\n", range: rulesSection.upperBound..<page.endIndex))
        let end = try #require(page.range(of: "```", range: start.upperBound..<page.endIndex))
        let rules = try Self.rules(String(page[start.upperBound..<end.lowerBound]))
        #expect(rules.sections.count == 8)
        #expect(rules.settings(for: Subject(appName: "Spotify")).ignore == true)
        let newsletter = rules.settings(for: Subject(urgency: .low, category: "email.arrived"))
        #expect(newsletter.sound == .off && newsletter.timeout == 3 && newsletter.colour == "#4F46E5")
        let chat = rules.settings(for: Subject(appName: "Team Chat"))
        #expect(chat.noPeek == true && chat.timeout == 8)
        #expect(rules.settings(for: Subject(appName: "Builder", body: "2 tests FAILED")).urgency == .critical)
        #expect(rules.settings(for: Subject(desktopEntry: "org.gnome.Evolution", summary: "Meeting in 15 minutes")).colour == "#FF9500")
    }
}
