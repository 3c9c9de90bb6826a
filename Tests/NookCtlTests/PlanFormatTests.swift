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
        // The key rule 8 suffixed names the mark the module wrote.
        #expect(element.id == "cover")
        expected += "; moves music/cover.song (marked \"cover\") \(from)->\(to)"
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

    @Test func watchLineNamesWhatThePlanReaderRefuses() {
        // nookctl reads plans with NookCore's reader, as renderers do: a record it refuses is
        // named with the key, never shown half-read.
        #expect(PlanSummary.line(.string("not a plan")) == "unreadable plan: (argument): expected type a{sv}, found s")
        // The scene is read first (a compact plan's chrome defaults come from it).
        #expect(PlanSummary.line(.vardict(["serial": .uint32(7), "cause": .string("hide")]))
                == "unreadable plan: scene: the record has no dictionary a{sv} here")
        var plan = tour[0].wireDictionary()
        plan["serial"] = .double(1e300)
        #expect(PlanSummary.line(PlanFixture.dbus(.dictionary(plan))) == "unreadable plan: serial: expected type t, found d")
    }

    @Test func watchLineNamesEveryChangeAFrameCoalesced() {
        var plan = tour[0]
        // As the broker sends it: `causes` ends with the plan's own `cause`, which the line names once.
        plan.causes = [.contentChanged, .activityUpdated, .show]
        #expect(PlanSummary.line(PlanFixture.wire(plan)).hasPrefix("#1 show (+content_changed, +activity_updated): hidden -> pill direct, fresh window; moves nothing"))
    }

    @Test func watchLineListsLayoutChanges() throws {
        let rect = Rect(x: 0, y: 0, width: 10, height: 10)
        var plan = tour[0]
        plan.layout = [LayoutChange(path: "expanded/0/1", change: .move, fromRect: rect, toRect: rect, curve: .none())]
        #expect(PlanSummary.line(PlanFixture.wire(plan)).contains("; moves nothing; layout move expanded/0/1"))
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
        let text = try PlanExplanation.text(PlanFixture.wire(tour[1]))
        #expect(text.hasPrefix("plan #2 (open)\n"))
        #expect(text.contains("moves (1):\n  music/cover.song (nook): compact_leading (626,6,20,20) -> expanded/0 (678,48,156,156)\n"))
        #expect(text.contains("  appear expanded of music/song: fades in on bezier("))
        #expect(text.contains("    why: one source on each side for this key, so it moves"))
        #expect(text.contains("clipped to the chrome"))
        #expect(text.contains("slots ("))
        for diagnostic in tour[1].diagnostics { #expect(text.contains("\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue) [")) }
    }

    @Test func previewExplainsCrossFadesAndReduceMotion() throws {
        let peek = try PlanExplanation.text(PlanFixture.wire(tour[3]))
        #expect(peek.contains("the two views differ: they cross-fade inside the moving frame"))
        #expect(peek.contains("  stay compact_trailing of music/song: stays\n"))

        var settings = PlanFixture.settings
        settings.reduceMotion = true
        let still = PlanFixture.plan(PlanFixture.scene(.pill, PlanFixture.pillContent), PlanFixture.scene(.expanded, PlanFixture.openContent),
                                     .open, serial: 9, settings: settings)
        let text = try PlanExplanation.text(PlanFixture.wire(still))
        #expect(text.contains("Reduce Motion is on: nothing moves"))
        #expect(text.contains("moves (0):\n  nothing"))
        #expect(text.contains("reduce-motion ["))
    }

    @Test func statusListsActivitiesInDisplayOrder() throws {
        let state = try WireFields(reply: DBusValue.vardict([
            "presentation": .string("expanded"), "module": .string("music"), "activity": .string("song"),
            "activities": .array(element: "(ss)", [.structure([.string("music"), .string("song")]),
                                                   .structure([.string("timer"), .string("tea")]),
                                                   .structure([.string("music"), .string("podcast")])]),
            "reduce_motion": .bool(true), "serial": .uint64(12),
        ]))
        #expect(try StateText.status(state) == """
            presentation   expanded
            focus          music/song
            serial         12
            reduce motion  on
            activities     3
              1. music/song
              2. timer/tea
              3. music/podcast

            """)
        #expect(try StateText.activityList(state) == "music/song\ntimer/tea\nmusic/podcast\n")
        #expect(try StateText.moduleList(state) == "music\ntimer\n")
        #expect(try StateText.status(WireFields(fields: [:])) == "presentation   -\nfocus          -\nserial         0\nreduce motion  off\nactivities     0\n")
    }

    @Test func tokensPrintSortedAsJSON() {
        let tokens = (DBusValue.vardict(["transition.peek": .vardict(["response": .double(0.3)]), "motion.hideDip": .string("150ms")]))
        #expect(StateText.tokens(tokens) == "motion.hideDip = \"150ms\"\ntransition.peek = {\"response\":0.3}\n")
    }
}
