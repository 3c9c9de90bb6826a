import Foundation
import NookBus
import NookCore
import Testing
@testable import NookCtlKit

/// Plan formatting from plans the planner made, decoded generically from their wire form.
@Suite struct PlanFormatTests {
    let tour = PlanFixture.tour

    @Test func theFixtureMovesTheCover() throws {
        let open = tour[1]
        #expect(open.elements.count == 1)
        #expect(open.elements.first?.key == "music/cover.song")
        #expect(tour[3].elements.first?.crossFade == true)
    }

    @Test func watchLineSaysSerialCauseSidesAndMoves() throws {
        let open = tour[1]
        let element = try #require(open.elements.first)
        let line = PlanSummary.line(PlanFixture.wire(open))
        let from = "(" + [element.fromRect.x, element.fromRect.y, element.fromRect.width, element.fromRect.height]
            .map { NumberText.format($0) }.joined(separator: ",") + ")"
        let to = "(" + [element.toRect.x, element.toRect.y, element.toRect.width, element.toRect.height]
            .map { NumberText.format($0) }.joined(separator: ",") + ")"
        #expect(open.fromContent.isEmpty)  // the pill names no content; the side is printed bare
        var expected = "#2 open: pill -> expanded \"\(open.toContent)\" \(open.conversion.rawValue)"
        expected += "; moves music/cover.song \(from)->\(to)"
        if !open.diagnostics.isEmpty { expected += "; diagnostics " + open.diagnostics.map(\.code.rawValue).joined(separator: ", ") }
        #expect(line == expected)
        #expect(!line.contains("\n"))
    }

    @Test func watchLineForAPlanWithNothingMoving() {
        let show = PlanFixture.wire(tour[0])
        let line = PlanSummary.line(show)
        #expect(line.hasPrefix("#1 show: hidden -> pill"))
        #expect(line.contains("; moves nothing"))
    }

    @Test func watchLineForAnEmptyOrForeignRecordDoesNotCrash() {
        #expect(PlanSummary.line(.string("not a plan")) == "#0 : - -> - direct; moves nothing")
        #expect(PlanSummary.line(.vardict(["serial": .uint32(7), "cause": .string("hide"), "interrupts": .uint64(6)]))
                == "#7 hide: - -> - direct, interrupts #6; moves nothing")
        let layout = DBusValue.array(element: "a{sv}", [.vardict(["path": .string("expanded/0/1"), "change": .string("move")])])
        #expect(PlanSummary.line(.vardict(["serial": .uint64(8), "cause": .string("activity_updated"), "from": .string("expanded"),
                                           "to": .string("expanded"), "layout": layout]))
                == "#8 activity_updated: expanded -> expanded direct; moves nothing; layout move expanded/0/1")
    }

    @Test func watchLineNamesEveryChangeAFrameCoalesced() {
        let causes = DBusValue.array(element: "s", [.string("content_changed"), .string("activity_updated")])
        #expect(PlanSummary.line(.vardict(["serial": .uint64(9), "cause": .string("show"), "causes": causes]))
                == "#9 show (+content_changed, +activity_updated): - -> - direct; moves nothing")
    }

    @Test func aSerialPastTwoToTheSixtyFourDoesNotCrashTheFormatter() {
        #expect(PlanSummary.line(.vardict(["serial": .double(1e300), "interrupts": .double(.infinity)]))
                == "#0 : - -> - direct; moves nothing")
    }

    @Test func jsonIsOneFaithfulObjectPerPlan() throws {
        let wire = PlanFixture.wire(tour[1])
        let line = PlanJSON.json(wire)
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["serial"] as? Int == 2)
        #expect(object["cause"] as? String == "open")
        let elements = try #require(object["elements"] as? [[String: Any]])
        #expect(elements.count == 1)
        let toRect = try #require(elements[0]["to_rect"] as? [Double])
        let rect = tour[1].elements[0].toRect
        #expect(toRect == [rect.x, rect.y, rect.width, rect.height])
        let curve = try #require(elements[0]["curve"] as? [String: Any])
        #expect(curve["type"] as? String != nil)
        #expect((object["scene"] as? [String: Any])?["nodes"] is [Any])
        // Same message, same bytes.
        #expect(PlanJSON.json(wire) == line)
    }

    @Test func jsonMapsEveryDBusType() {
        let value: DBusValue = .vardict([
            "b": .bool(true), "y": .byte(7), "n": .int16(-3), "q": .uint16(3), "i": .int32(-5), "u": .uint32(5),
            "x": .int64(-9), "t": .uint64(9), "d": .double(0.25), "whole": .double(156), "nan": .double(.nan),
            "s": .string("a \"quote\"\n\u{1}"), "o": .objectPath("/org/nook/Nook1"), "rect": .structure([.double(1), .double(2.5)]),
            "list": .array(element: "s", []), "nested": .variant(.variant(.string("v"))),
            "map": .dictionary(key: "u", value: "s", [.init(.uint32(1), .string("one"))]),
        ])
        #expect(PlanJSON.json(value) == #"{"b":true,"d":0.25,"i":-5,"list":[],"map":{"1":"one"},"n":-3,"nan":null,"nested":"v","o":"/org/nook/Nook1","q":3,"rect":[1,2.5],"s":"a \"quote\"\n\u0001","t":9,"u":5,"whole":156,"x":-9,"y":7}"#)
    }

    @Test func previewExplainsWhatMovesAndWhy() throws {
        let text = PlanExplanation.text(PlanFixture.wire(tour[1]))
        #expect(text.hasPrefix("plan #2 (open)\n"))
        #expect(text.contains("moves (1):\n  music/cover.song (nook): compact_leading (626,6,20,20) -> expanded/0 (678,48,156,156)\n"))
        #expect(text.contains("  appear expanded of music/song: fades in on bezier("))
        #expect(text.contains("    why: one source on each side for this key, so it moves"))
        #expect(text.contains("clipped to the chrome"))
        #expect(text.contains("slots ("))
        for diagnostic in tour[1].diagnostics { #expect(text.contains("\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue) [")) }
    }

    @Test func previewExplainsCrossFadesAndReduceMotion() throws {
        let peek = PlanExplanation.text(PlanFixture.wire(tour[3]))
        #expect(peek.contains("the two views differ: they cross-fade inside the moving frame"))
        #expect(peek.contains("  stay compact_trailing of music/song: stays\n"))

        var settings = PlanFixture.settings
        settings.reduceMotion = true
        let still = PlanFixture.plan(PlanFixture.scene(.pill, PlanFixture.pillContent), PlanFixture.scene(.expanded, PlanFixture.openContent),
                                     .open, serial: 9, settings: settings)
        let text = PlanExplanation.text(PlanFixture.wire(still))
        #expect(text.contains("Reduce Motion is on: nothing moves"))
        #expect(text.contains("moves (0):\n  nothing"))
        #expect(text.contains("reduce-motion ["))
    }

    @Test func statusListsActivitiesInDisplayOrder() {
        let state = WireRecord(DBusValue.vardict([
            "presentation": .string("expanded"), "module": .string("music"), "activity": .string("song"),
            "activities": .array(element: "(ss)", [.structure([.string("music"), .string("song")]),
                                                   .structure([.string("timer"), .string("tea")]),
                                                   .structure([.string("music"), .string("podcast")])]),
            "reduce_motion": .bool(true), "serial": .uint64(12),
        ]))
        #expect(StateText.status(state) == """
            presentation   expanded
            focus          music/song
            serial         12
            reduce motion  on
            activities     3
              1. music/song
              2. timer/tea
              3. music/podcast

            """)
        #expect(StateText.activityList(state) == "music/song\ntimer/tea\nmusic/podcast\n")
        #expect(StateText.moduleList(state) == "music\ntimer\n")
        #expect(StateText.status(WireRecord()) == "presentation   -\nfocus          -\nserial         0\nreduce motion  off\nactivities     0\n")
    }

    @Test func tokensPrintSortedAsJSON() {
        let tokens = WireRecord(DBusValue.vardict(["transition.peek": .vardict(["response": .double(0.3)]), "motion.hideDip": .string("150ms")]))
        #expect(StateText.tokens(tokens) == "motion.hideDip = \"150ms\"\ntransition.peek = {\"response\":0.3}\n")
    }
}
