import NookBus
import NookCore
import Testing
@testable import NookCtlKit

/// Each verb against the contract: which interface, member, signature and arguments it calls.
@Suite struct CommandCallTests {
    func calls(_ arguments: [String]) throws -> [SentCall] { try ArgumentParser.parse(arguments).command.sent }

    @Test func controlMethodsAndArguments() throws {
        let control = "org.nook.Nook1.Control"
        #expect(try calls(["show"]) == [SentCall(control, "Show")])
        #expect(try calls(["hide"]) == [SentCall(control, "Hide")])
        #expect(try calls(["status"]) == [SentCall(control, "GetState", reply: "a{sv}")])
        #expect(try calls(["open", "--activity", "music/song", "--via", "hover"]) == [SentCall(
            control, "Open",
            [.dictionary(key: "s", value: "v", [
                .init(.string("activity"), .variant(.string("song"))), .init(.string("module"), .variant(.string("music"))),
                .init(.string("onto"), .variant(.string("activity"))), .init(.string("via"), .variant(.string("hover"))),
            ])], signature: "a{sv}", reply: "t")])
        #expect(try calls(["open"]) == [SentCall(.open([:]))])
        #expect(try calls(["close"]) == [SentCall(control, "Close", [.vardict([:])], signature: "a{sv}", reply: "t")])
        #expect(try calls(["peek", "music/song"]) == [SentCall(control, "Peek", [.string("music"), .string("song")], signature: "ss", reply: "t")])
        #expect(try calls(["unpeek"]) == [SentCall(control, "EndPeek", reply: "t")])
        #expect(try calls(["companion", "music"]) == [SentCall(control, "OpenCompanion", [.string("music")], signature: "s", reply: "t")])
        #expect(try calls(["companion", "--close"]) == [SentCall(control, "CloseCompanion", reply: "t")])
        #expect(try calls(["display", "--width", "1512", "--height", "982", "--notch", "200x32"]) == [SentCall(
            control, "DisplayChanged",
            [.vardict(["width": .double(1512), "height": .double(982), "notch_width": .double(200), "notch_height": .double(32)])],
            signature: "a{sv}", reply: "t")])
        #expect(try calls(["preview", "peek", "music/song"]) == [SentCall(
            control, "PreviewPlan", [.string("peek"), .vardict(["module": .string("music"), "activity": .string("song")])],
            signature: "sa{sv}", reply: "a{sv}")])
        #expect(try calls(["theme", "show"]) == [SentCall(control, "GetTokens", reply: "a{sv}")])
        #expect(try calls(["theme", "set", "motion.hideDip", "240ms"]) == [SentCall(
            control, "SetTokens", [.vardict(["motion.hideDip": .string("240ms")])], signature: "a{sv}")])
        #expect(try calls(["animation", "set", "convert", "chrome"]) == [SentCall(
            control, "SetSharedElementAnimation", [.string("convert"), .vardict(["type": .string("chrome")])], signature: "sa{sv}")])
        #expect(try calls(["animation", "set", "peek", "spring:0.3:0.9"]) == [SentCall(
            control, "SetSharedElementAnimation",
            [.string("peek"), .vardict(["type": .string("spring"), "response": .double(0.3), "damping_fraction": .double(0.9)])],
            signature: "sa{sv}")])
    }

    @Test func reduceMotionIsAPropertySet() throws {
        #expect(try calls(["set", "reduce-motion", "on"]) == [SentCall(
            "org.freedesktop.DBus.Properties", "Set",
            [.string("org.nook.Nook1.Control"), .string("ReduceMotion"), .variant(.bool(true))], signature: "ssv")])
    }

    @Test func watchAndRecordSubscribeAsRenderers() throws {
        let subscribe = try #require(try calls(["watch", "--width", "1920", "--height", "1080", "--notch", "0x0"]).first)
        #expect(subscribe.interface == "org.nook.Nook1.Render" && subscribe.member == "Subscribe")
        #expect(subscribe.signature == "a{sv}" && subscribe.reply == "oa{sv}")
        let display = try WireFields(reply: subscribe.arguments[0])
        #expect(try display.double("width") == 1920 && display.double("height") == 1080)
        #expect(try display.double("notch_width") == 0 && display.double("notch_height") == 0)
        #expect(try display.strings("capabilities") == ["relayout", "spring", "crossfade"])
        #expect(try calls(["record", "--svg", "x.svg"]).map(\.member) == ["Subscribe"])
    }

    @Test func endCallsControlEndActivity() throws {
        let calls = try ArgumentParser.parse(["end", "timer/tea", "--immediate"]).command.calls
        #expect(calls.map(\.member) == ["EndActivity"])
        #expect(calls.first?.interface == "org.nook.Nook1.Control")
        #expect(calls.first?.arguments == [.string("timer"), .string("tea"), .vardict(["dismissal": .string("immediate")])])
    }

    @Test func themeFilesFlattenToDottedPaths() throws {
        let json = """
        {"motion": {"$type": "duration", "hideDip": {"$value": "150ms"}},
         "transition": {"peek": {"$type": "spring", "$value": {"response": 0.3, "dampingFraction": 0.9}},
                        "ease": {"$value": [0.25, 0.1, 0.25, 1]}},
         "motion2": {"alias": {"$value": "{transition.peek}"}}}
        """
        let tokens = TokenConversion.tokens(in: try NookCore.JSONValue.parse(json))
        #expect(tokens == [
            "motion.hideDip": .string("150ms"),
            "transition.peek": .vardict(["response": .double(0.3), "damping_fraction": .double(0.9)]),
            "transition.ease": .structure([.double(0.25), .double(0.1), .double(0.25), .double(1)]),
            "motion2.alias": .string("{transition.peek}"),
        ])
    }
}
