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

    /// Each plan's moving shared elements are drawn as items carrying their key, clipped to
    /// the chrome, at `from_rect` when their plan starts (or where the last one left them).
    @Test func sharedElementsTravelAsItemsCarryingTheirKey() throws {
        let elements = try parse(svg)
        let sampling = SVGSampling(elements)
        let keyed = elements.filter { $0.attributes["data-key"] != nil }
        let plans = PlanFixture.recorded(tour)
        let timeline = RecordingTimeline(plans)
        #expect(tour.contains { !$0.elements.isEmpty })
        for (entry, plan) in zip(timeline.entries, tour) {
            for element in plan.elements {
                let moving = keyed.filter { $0.attributes["data-key"] == element.key }
                #expect(!moving.isEmpty, "no item for \(element.key)")
                // Half a frame in, some copy of it sits near its from_rect.
                let time = entry.start + 1.0 / 120
                let near = moving.contains { group in
                    guard let box = group.children.first(where: { $0.attributes["class"] == "box" }),
                          let rect = sampling.rect(box, at: time) else { return false }
                    return abs(rect.x - element.fromRect.x) < 20 && abs(rect.width - element.fromRect.width) < 20
                }
                #expect(near, "#\(plan.serial) \(element.key) does not start near \(element.fromRect)")
            }
        }
        #expect(keyed.filter { $0.attributes["clip-path"] != nil }.allSatisfy { $0.attributes["clip-path"] == "url(#chrome-clip)" })
    }

    @Test func springsAreSampledDenselyAndOvershootWhenTheyBounce() throws {
        let elements = try parse(svg)
        let chrome = try #require(elements.first { $0.attributes["id"] == "chrome" })
        let width = try #require(chrome.animate("width"))
        let values = try #require(width.attributes["values"]).split(separator: ";").compactMap { Double($0) }
        let keyTimes = try #require(width.attributes["keyTimes"]).split(separator: ";").compactMap { Double($0) }
        #expect(keyTimes.count == values.count)
        #expect(keyTimes.first == 0 && keyTimes.last == 1 && zip(keyTimes, keyTimes.dropFirst()).allSatisfy { $0 <= $1 })
        // The open's chrome spring is under-damped: the width passes the expanded width and comes back.
        let open = tour[1].chrome.toRect.width
        #expect(values.contains { $0 > open + 0.5 }, "no overshoot past \(open)")
        #expect(values.count >= Int(tour[1].chrome.curve.totalDuration * 30), "too few samples: \(values.count)")
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
        #expect(try PlanExplanation.text(F.wire(plans[1])).contains("the chrome dissolves"))
        #expect(try !PlanExplanation.text(F.wire(tour[1])).contains("the chrome dissolves"))
        // Without Reduce Motion there is no second shape.
        #expect(!svg.contains("chrome-fading"))
    }

    @Test func slotsFadeAndTheTimelineLabelsEachPlan() throws {
        let elements = try parse(svg)
        let expanded = elements.filter { $0.attributes["data-path"]?.hasPrefix("expanded") == true }
        #expect(!expanded.isEmpty && expanded.allSatisfy { $0.animate("opacity") != nil })
        for plan in tour { #expect(svg.contains(">#\(plan.serial) \(plan.cause.rawValue)</text>")) }
    }

    /// Rule 10 (contract 1.1): while the pill peeks, the scene's suppressed pill copy is not drawn.
    @Test func rule10_aSuppressedPillCopyIsNotDrawn() throws {
        #expect(tour[3].scene.suppressed == ["compact_leading"])
        let sampling = SVGSampling(try parse(svg))
        let timeline = RecordingTimeline(PlanFixture.recorded(tour))
        func shows(_ path: String, at time: Double) -> Bool {
            sampling.drawn(at: time).contains { $0.path == path && $0.key == nil && $0.opacity > 0.05 }
        }
        let peekAtRest = timeline.entries[3].start + timeline.entries[3].duration + 0.05
        let pillAtRest = timeline.entries[4].start + timeline.entries[4].duration + 0.05
        #expect(!shows("compact_leading", at: peekAtRest), "the peek's scene draws the pill's cover")
        #expect(shows("peek/1", at: peekAtRest))
        #expect(shows("compact_leading", at: pillAtRest), "after the peek the pill's cover is back")
    }

    @Test func samePlansGiveTheSameBytes() throws {
        if let path = ProcessInfo.processInfo.environment["NOOKCTL_SVG_OUT"] {
            try svg.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let again = SVGRecording(plans: PlanFixture.recorded(PlanFixture.tour)).document
        #expect(again == svg)
        // And the bytes say something: other plans, or the same plans at other times, differ.
        #expect(SVGRecording(plans: PlanFixture.recorded(Array(PlanFixture.tour.prefix(3)))).document != again)
        #expect(SVGRecording(plans: PlanFixture.recorded(PlanFixture.tour, gap: 0.3)).document != again)
    }

    /// The recording is the render model's frames: sampled at chosen instants (every
    /// twentieth frame) the SVG's tracks give what `PlanPresenter` draws, within 1 point and
    /// 0.05 opacity, through the tour, an interrupted move and an interrupted hide dip.
    @Test(arguments: ["tour", "interrupted move", "interrupted dip"])
    func theSVGShowsTheRenderModelsFrames(_ name: String) throws {
        let recorded = Self.recordings[name]!
        let document = SVGRecording(plans: recorded).document
        let sampling = SVGSampling(try parse(document))
        var failures: [String] = []
        for frame in stride(from: 0, through: Int(sampling.duration * 60), by: 20) {
            let time = Double(frame) / 60
            let model = SVGSampling.drawn(SVGSampling.modelFrame(recorded, at: time))
            failures += SVGSampling.mismatches(svg: sampling.drawn(at: time), model: model).map { "\(time) s: \($0)" }
        }
        #expect(failures.isEmpty, "\(failures.count) differences, first: \(failures.prefix(4))")
    }

    static var recordings: [String: [RecordedPlan]] {
        typealias F = PlanFixture
        let pill = F.scene(.pill, F.pillContent), open = F.scene(.expanded, F.openContent)
        let opening = F.plan(pill, open, .open, serial: 2)
        let closing = TransitionPlanner.plan(from: open, to: pill, action: PlanAction(cause: .close, serial: 3), settings: F.settings,
                                             inFlight: InFlightPlan(plan: opening, elapsed: 0.1))
        let (dip, unmarked, plain) = Self.dipPlan()
        let back = TransitionPlanner.plan(from: F.scene(.expanded, plain), to: F.scene(.pill, unmarked),
                                          action: PlanAction(cause: .close, serial: 8), settings: F.settings,
                                          inFlight: InFlightPlan(plan: dip, elapsed: 0.05))
        return [
            "tour": F.recorded(F.tour),
            "interrupted move": [RecordedPlan(plan: F.wire(F.subscribe(pill)), time: 0), RecordedPlan(plan: F.wire(opening), time: 1),
                                 RecordedPlan(plan: F.wire(closing), time: 1.1)],
            "interrupted dip": [RecordedPlan(plan: F.wire(F.subscribe(F.scene(.pill, unmarked), serial: 6)), time: 0),
                                RecordedPlan(plan: F.wire(dip), time: 1), RecordedPlan(plan: F.wire(back), time: 1.05)],
        ]
    }

    /// Pill -> expanded with nothing shared: the chrome dips through hidden (rule 13).
    static func dipPlan() -> (plan: TransitionPlan, pill: SceneContent, expanded: SceneContent) {
        typealias F = PlanFixture
        var plain = F.pillContent
        plain.expanded = .activity(F.owned(F.node(.vstack, [F.node(.view) { $0.name = "CoverArt"; $0.width = 156; $0.height = 156 },
                                                            F.text("Song title")])))
        var unmarked = F.pillContent
        unmarked.compactLeading = F.owned(F.node(.view) { $0.name = "CoverArt"; $0.width = 20; $0.height = 20 })
        plain.compactLeading = unmarked.compactLeading
        return (F.plan(F.scene(.pill, unmarked), F.scene(.expanded, plain), .open, serial: 7), unmarked, plain)
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
        #expect(try PlanExplanation.text(F.wire(dip)).contains("the chrome dips through hidden"))

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
        #expect(abs(try #require(sizes.last) - 40) < 0.5)
        #expect(try #require(sizes.first) < 40)
        #expect(text.animate("x") != nil && group.animate("opacity") != nil)
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
