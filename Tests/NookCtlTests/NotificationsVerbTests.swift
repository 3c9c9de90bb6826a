import NookBus
import NookCore
import Testing

@testable import NookCtlKit

/// `nookctl notifications ...` and `nookctl dnd ...`: what they parse to and what they call on
/// nook-notifications' `org.nook.Notifications1`.
struct NotificationsVerbTests {
    func command(_ arguments: [String]) throws -> Command { try ArgumentParser.parse(arguments).command }

    @Test func notificationsVerbsCallTheBridgesInterface() throws {
        #expect(try command(["notifications", "list", "--json"]) == .notifications(.list(json: true)))
        #expect(try command(["notifications", "restore"]).sent == [SentCall("org.nook.Notifications1", "Restore", reply: "u")])
        #expect(try command(["notifications", "clear"]).calls.map(\.member) == ["Clear"])
        #expect(try command(["dnd", "status"]).calls.map(\.member) == ["DoNotDisturb"])
    }

    @Test func dndForIsADurationOfOneSecondToSevenDays() throws {
        #expect(try command(["dnd", "on", "--for", "30m"]) == .notifications(.dnd(mode: "on", seconds: 1800, json: false)))
        #expect(try command(["dnd", "toggle"]).sent == [SentCall(
            "org.nook.Notifications1", "SetDoNotDisturb", [.string("toggle"), NotificationsCommand.options(nil)], signature: "sa{sv}", reply: "a{sv}")])
        #expect(try command(["dnd", "on", "--for", "168h"]).calls.first?.arguments.last == NotificationsCommand.options(604_800))
        for bad in ["0.5s", "169h", "soon", "-1"] {
            #expect(throws: UsageError.self, "\(bad)") { try command(["dnd", "on", "--for", bad]) }
        }
        // `off` takes no --for.
        #expect(throws: UsageError.self) { try command(["dnd", "off", "--for", "1h"]) }
    }
}
