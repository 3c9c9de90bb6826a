import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NookBus
import NookCore
import Testing
@testable import NookCtlKit

/// `record --svg`: well-formed XML, one moving element per shared element, keyframes that
/// start at `from_rect` and end at `to_rect`, the chrome clip, the timeline, determinism.
@Suite struct SVGRecordingTests {
    let tour = PlanFixture.tour
    var svg: String { SVGRecording(plans: PlanFixture.recorded(tour)).document }

    /// Every element of the document with its attributes and its `<animate>` children.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        func animate(_ attribute: String) -> Element? {
            children.first { $0.name == "animate" && $0.attributes["attributeName"] == attribute }
        }
    }

    final class Collector: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var all: [Element] = []
        var error: Error?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let element = Element(name: name, attributes: attributes)
            stack.last?.children.append(element)
            stack.append(element)
            all.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
    }

    func parse(_ text: String) throws -> [Element] {
        let parser = XMLParser(data: Data(text.utf8))
        let collector = Collector()
        parser.delegate = collector
        let ok = parser.parse()
        #expect(ok, "XML error: \(String(describing: collector.error ?? parser.parserError))")
        return collector.all
    }

    @Test func isWellFormedXMLWithAnSVGRoot() throws {
        let elements = try parse(svg)
        let root = try #require(elements.first)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["data-plans"] == "5")
    }

    @Test func oneAnimatedElementPerMovingSharedElementFromItsFromRectToItsToRect() throws {
        let elements = try parse(svg)
        let moving = elements.filter { $0.attributes["id"]?.hasPrefix("element-") == true }
        let expected = tour.flatMap { plan in plan.elements.enumerated().map { (plan.serial, $0.offset, $0.element) } }
        #expect(moving.count == expected.count)
        #expect(expected.count >= 3)
        for (serial, index, element) in expected {
            let drawn = try #require(moving.first { $0.attributes["id"] == "element-\(serial)-\(index)" })
            let pairs = [("x", element.fromRect.x, element.toRect.x), ("y", element.fromRect.y, element.toRect.y),
                         ("width", element.fromRect.width, element.toRect.width), ("height", element.fromRect.height, element.toRect.height)]
            for (attribute, from, to) in pairs {
                let f = SVGText.number(from), t = SVGText.number(to)
                if let animate = drawn.animate(attribute) {
                    let values = try #require(animate.attributes["values"]).split(separator: ";").map(String.init)
                    #expect(values.first == f, "\(serial)-\(index) \(attribute) starts at from_rect")
                    #expect(values.last == t, "\(serial)-\(index) \(attribute) ends at to_rect")
                } else {
                    #expect(f == t && drawn.attributes[attribute] == f, "\(serial)-\(index) \(attribute) does not change")
                }
            }
            // It shows only while it travels, and is clipped to the chrome.
            #expect(drawn.animate("opacity") != nil)
            #expect(drawn.attributes["opacity"] == "0")
        }
        let groups = elements.filter { $0.attributes["data-key"] != nil }
        #expect(groups.allSatisfy { $0.attributes["clip-path"] == "url(#chrome-clip)" })
    }

    @Test func springsAreSampledDenselyAndOvershootWhenTheyBounce() throws {
        let elements = try parse(svg)
        let open = try #require(elements.first { $0.attributes["id"] == "element-2-0" })
        let width = try #require(open.animate("width"))
        let values = try #require(width.attributes["values"]).split(separator: ";").compactMap { Double($0) }
        let curve = tour[1].elements[0].curve
        // At least 30 samples a second over the curve's settle time.
        #expect(Double(values.count) >= curve.totalDuration * 30)
        // The convert spring is under-damped (0.82): a growing width passes its end and comes
        // back, and dense samples keep that overshoot.
        let (first, last) = (try #require(values.first), try #require(values.last))
        #expect(last > first, "the cover grows when the nook opens: \(first) -> \(last)")
        #expect(try #require(values.max()) > last + 0.1, "no overshoot in \(values)")
        let keyTimes = try #require(width.attributes["keyTimes"]).split(separator: ";").compactMap { Double($0) }
        #expect(keyTimes.count == values.count)
        #expect(keyTimes.first == 0 && keyTimes.last == 1 && zip(keyTimes, keyTimes.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func everyAnimationHasMatchingKeyTimesAndValues() throws {
        for animate in try parse(svg) where animate.name == "animate" || animate.name == "animateTransform" {
            let values = try #require(animate.attributes["values"]).split(separator: ";")
            guard let keyTimes = animate.attributes["keyTimes"]?.split(separator: ";") else { continue }
            #expect(keyTimes.count == values.count)
            #expect(keyTimes.first == "0" && keyTimes.last == "1")
            let times = keyTimes.compactMap { Double($0) }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(animate.attributes["repeatCount"] == "indefinite")
        }
    }

    @Test func theChromeMorphsAndItsClipFollows() throws {
        let elements = try parse(svg)
        let chrome = try #require(elements.first { $0.attributes["id"] == "chrome" })
        let clip = try #require(elements.first { $0.name == "clipPath" }?.children.first)
        for attribute in ["x", "y", "width", "height", "rx"] {
            #expect(clip.animate(attribute)?.attributes["values"] == chrome.animate(attribute)?.attributes["values"])
            #expect(clip.attributes[attribute] == chrome.attributes[attribute])
        }
        // The chrome stays on the top edge (y) but grows and shrinks.
        #expect(chrome.animate("width") != nil && chrome.animate("height") != nil)
        // The open plan's chrome lands on its to_rect.
        let widths = try #require(chrome.animate("width")?.attributes["values"]).split(separator: ";").map(String.init)
        #expect(widths.contains(SVGText.number(tour[1].chrome.toRect.width)))
    }

    /// Rule 18: with Reduce Motion the plans' chrome says `cross_fade`, and the recording
    /// shows two whole shapes dissolving (`#chrome` the destination, `#chrome-fading` the
    /// source, opacity tracks) instead of a rect that grows: every x, y, width, height and
    /// corner radius either rect ever takes is an end of some plan's chrome.
    @Test func reduceMotionChromeDissolvesWithNoShapeInBetween() throws {
        typealias F = PlanFixture
        let reduce = PlannerSettings(display: F.laptop, reduceMotion: true)
        func scene(_ presentation: Presentation, _ content: SceneContent) -> PlannerScene {
            PlannerScene(presentation: presentation, content: content, settings: reduce)
        }
        let pill = scene(.pill, F.pillContent), open = scene(.expanded, F.openContent)
        let plans = [
            F.plan(scene(.hidden, SceneContent()), pill, .show, serial: 1, settings: reduce),
            F.plan(pill, open, .open, serial: 2, settings: reduce),
            F.plan(open, pill, .close, serial: 3, settings: reduce),
        ]
        #expect(plans.allSatisfy { $0.chrome.crossFade })
        let elements = try parse(SVGRecording(plans: F.recorded(plans)).document)
        let chrome = try #require(elements.first { $0.attributes["id"] == "chrome" })
        let fading = try #require(elements.first { $0.attributes["id"] == "chrome-fading" })
        func values(_ rect: Element, _ attribute: String) -> [String] {
            rect.animate(attribute)?.attributes["values"]?.split(separator: ";").map(String.init) ?? [rect.attributes[attribute] ?? "?"]
        }
        let ends: [String: Set<String>] = [
            "x": Set(plans.flatMap { [$0.chrome.fromRect.x, $0.chrome.toRect.x] }.map(SVGText.number)),
            "y": Set(plans.flatMap { [$0.chrome.fromRect.y, $0.chrome.toRect.y] }.map(SVGText.number)),
            "width": Set(plans.flatMap { [$0.chrome.fromRect.width, $0.chrome.toRect.width] }.map(SVGText.number)),
            "height": Set(plans.flatMap { [$0.chrome.fromRect.height, $0.chrome.toRect.height] }.map(SVGText.number)),
            "rx": Set(plans.flatMap { [$0.chrome.fromRadius, $0.chrome.toRadius] }.map(SVGText.number)),
        ]
        for rect in [chrome, fading] {
            for (attribute, allowed) in ends {
                for value in values(rect, attribute) {
                    #expect(allowed.contains(value), "#\(rect.attributes["id"] ?? "") \(attribute) = \(value), not an end of any plan's chrome")
                }
            }
        }
        // The open's destination (larger) fades in; the close's source (larger) fades out.
        let opacities = values(fading, "opacity").compactMap(Double.init) + values(chrome, "opacity").compactMap(Double.init)
        #expect(opacities.contains { $0 > 0.2 && $0 < 0.8 }, "no dissolve: \(opacities)")
        #expect(values(chrome, "width").contains(SVGText.number(plans[1].chrome.toRect.width)))
        #expect(values(fading, "width").contains(SVGText.number(plans[2].chrome.fromRect.width)))
        #expect(PlanExplanation.text(F.wire(plans[1])).contains("the chrome dissolves"))
        #expect(!PlanExplanation.text(F.wire(tour[1])).contains("the chrome dissolves"))
        // Without Reduce Motion there is no second shape.
        #expect(!svg.contains("chrome-fading"))
    }

    @Test func slotsFadeAndTheTimelineLabelsEachPlan() throws {
        let elements = try parse(svg)
        let slots = elements.filter { $0.attributes["data-slot"] != nil }
        #expect(slots.contains { $0.attributes["data-slot"] == "expanded" && $0.animate("opacity") != nil })
        let texts = svg
        for plan in tour { #expect(texts.contains(">#\(plan.serial) \(plan.cause.rawValue)</text>")) }
    }

    /// Set `NOOKCTL_SVG_OUT=/path/tour.svg` to write the tour's recording for viewing.
    /// Rule 10 (contract 1.1): while the pill peeks, the scene's suppressed pill copy is not drawn.
    @Test func rule10_aSuppressedPillCopyIsNotDrawn() throws {
        #expect(tour[3].scene.suppressed == ["compact_leading"])
        let elements = try parse(svg)
        func pathsDrawn(serial: String) -> [String] {
            elements.filter { $0.name == "g" && $0.attributes["data-serial"] == serial }
                .flatMap(\.children).compactMap { $0.attributes["data-path"] }
        }
        #expect(!pathsDrawn(serial: "4").contains("compact_leading"), "the peek's scene draws the pill's cover")
        #expect(pathsDrawn(serial: "4").contains("peek/0"))
        #expect(pathsDrawn(serial: "5").contains("compact_leading"), "after the peek the pill's cover is back")
    }

    @Test func samePlansGiveTheSameBytes() throws {
        if let path = ProcessInfo.processInfo.environment["NOOKCTL_SVG_OUT"] {
            try svg.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(SVGRecording(plans: PlanFixture.recorded(PlanFixture.tour)).document == svg)
    }

    @Test func anInterruptedMoveStartsWhereThePlanSaysAndTheOldCopyVanishes() throws {
        typealias F = PlanFixture
        let pill = F.scene(.pill, F.pillContent), open = F.scene(.expanded, F.openContent)
        let opening = F.plan(pill, open, .open, serial: 2)
        let closing = TransitionPlanner.plan(from: open, to: pill, action: PlanAction(cause: .close, serial: 3), settings: F.settings,
                                             inFlight: InFlightPlan(plan: opening, elapsed: 0.1))
        #expect(closing.interrupts == 2)
        let recorded = [RecordedPlan(plan: F.wire(opening), time: 0), RecordedPlan(plan: F.wire(closing), time: 0.1)]
        let document = SVGRecording(plans: recorded).document
        let elements = try parse(document)
        let back = try #require(elements.first { $0.attributes["id"] == "element-3-0" })
        let element = try #require(closing.elements.first)
        let xs = try #require(back.animate("x")?.attributes["values"]).split(separator: ";").map(String.init)
        #expect(xs.first == SVGText.number(element.fromRect.x) && xs.last == SVGText.number(element.toRect.x))
        // The opening copy shows for the 0.1 s before the interruption only.
        let first = try #require(elements.first { $0.attributes["id"] == "element-2-0" })
        let opacity = try #require(first.animate("opacity"))
        let times = try #require(opacity.attributes["keyTimes"]).split(separator: ";").compactMap { Double($0) }
        let values = try #require(opacity.attributes["values"]).split(separator: ";").map(String.init)
        let total = RecordingTimeline(recorded).total
        let hidden = zip(times, values).first { $0.0 > 0 && $0.1 == "0" }.map { $0.0 * total }
        #expect(hidden.map { abs($0 - 0.1) < 0.01 } == true)
        #expect(document.contains(">#3 close</text>"))
    }

    @Test func aClaimWithNothingSharedDipsThroughHidden() throws {
        typealias F = PlanFixture
        var plain = F.pillContent
        plain.expanded = .activity(F.owned(F.node(.vstack, [F.node(.view) { $0.name = "CoverArt"; $0.width = 156; $0.height = 156 },
                                                            F.text("Song title")])))
        var unmarked = F.pillContent
        unmarked.compactLeading = F.owned(F.node(.view) { $0.name = "CoverArt"; $0.width = 20; $0.height = 20 })
        plain.compactLeading = unmarked.compactLeading
        let dip = F.plan(F.scene(.pill, unmarked), F.scene(.expanded, plain), .open, serial: 7)
        #expect(dip.conversion == .viaHidden)
        let document = SVGRecording(plans: [RecordedPlan(plan: F.wire(dip), time: 0)]).document
        let chrome = try #require(try parse(document).first { $0.attributes["id"] == "chrome" })
        let opacity = try #require(chrome.animate("opacity")?.attributes["values"]).split(separator: ";")
        #expect(opacity.first == "0" && opacity.last == "1")
        #expect(PlanExplanation.text(F.wire(dip)).contains("the chrome dips through hidden"))

        // As the renderer draws it: the chrome sits at its hidden point (no width) for the dip,
        // then grows from there; it never comes back at the pill's size first, and the dip is
        // counted once (it is in the curve's delay).
        let hideDip = try #require(dip.chrome.hideDip)
        let widths = try #require(chrome.animate("width")?.attributes["values"]).split(separator: ";").compactMap { Double($0) }
        let times = try #require(chrome.animate("width")?.attributes["keyTimes"]).split(separator: ";").compactMap { Double($0) }
        let total = try #require(chrome.animate("width")?.attributes["dur"].flatMap { Double($0.dropLast()) })
        #expect(widths.first == 0, "the chrome starts at its hidden point, not at \(widths.first ?? -1)")
        let grows = try #require(zip(times, widths).first { $0.1 > 0 }.map { $0.0 * total })
        #expect(abs(grows - hideDip) < 0.05, "the chrome grows at \(grows) s, the dip ends at \(hideDip) s")
        #expect(!widths.contains(dip.chrome.fromRect.width), "the chrome came back at the pill's width \(dip.chrome.fromRect.width)")
    }

    @Test func aMovingTimerCarriesItsTextScaledWithItsFrame() throws {
        typealias F = PlanFixture
        func timer(_ size: Double) -> ViewNode {
            F.node(.text) { $0.timerEnd = 1_800_000_000_000_000; $0.fontSize = size; $0.shared = SharedMark(id: "timer", style: .scale) }
        }
        let pillContent = SceneContent(compactLeading: OwnedView(owner: "timer/tea", view: timer(13)))
        var openContent = pillContent
        openContent.expanded = .activity(OwnedView(owner: "timer/tea", view: F.node(.vstack, [timer(40)])))
        let plan = F.plan(F.scene(.pill, pillContent), F.scene(.expanded, openContent), .open, serial: 5)
        #expect(plan.elements.first?.style == .scale)
        let elements = try parse(SVGRecording(plans: [RecordedPlan(plan: F.wire(plan), time: 0)]).document)
        let group = try #require(elements.first { $0.attributes["data-key"] == plan.elements.first?.key })
        let text = try #require(group.children.first { $0.name == "text" })
        let sizes = try #require(text.animate("font-size")?.attributes["values"]).split(separator: ";").compactMap { Double($0) }
        #expect(sizes.last == 40)
        #expect(try #require(sizes.first) < 40)
        #expect(text.animate("x") != nil && text.animate("opacity") != nil)
    }

    @Test func anEmptyRecordingIsStillAValidPicture() throws {
        let elements = try parse(SVGRecording(plans: []).document)
        #expect(elements.first?.name == "svg")
    }

    @Test func idleGapsAreShortenedButInterruptionsKeepTheirTime() {
        let plans = PlanFixture.recorded(tour, gap: 30)
        let timeline = RecordingTimeline(plans)
        for (previous, next) in zip(timeline.entries, timeline.entries.dropFirst()) {
            #expect(next.start - previous.start <= previous.duration + RecordingTimeline.maxIdle + 1e-9)
        }
        let quick = RecordingTimeline([plans[1], RecordedPlan(plan: plans[2].plan, time: plans[1].time + 0.1)])
        #expect(abs(quick.entries[1].start - 0.1) < 1e-9)
    }
}
