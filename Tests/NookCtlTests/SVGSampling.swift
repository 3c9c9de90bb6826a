import Foundation
import NookCore
import NookRenderModel
@testable import NookCtlKit

/// What a recorded SVG shows at an instant, read from its `<animate>` tracks the way SMIL
/// plays them (linear between key times), and what NookRenderModel draws for the same plans
/// at that instant: the two must agree.
struct SVGSampling {
    /// One thing drawn at an instant: the chrome (`path` "#chrome") or a display item.
    struct Drawn: CustomStringConvertible {
        var path: String
        var key: String?
        var rect: Rect
        var opacity: Double
        var description: String { "\(path)\(key.map { " [\($0)]" } ?? "") \(rect) @\(opacity)" }
    }

    /// The render model's frame at `time` of the recording: plans fed to a `PlanPresenter` at
    /// the starts the recording gives them.
    static func modelFrame(_ plans: [RecordedPlan], at time: Double) -> DisplayList {
        let timeline = RecordingTimeline(plans)
        var presenter = PlanPresenter()
        for entry in timeline.entries where entry.start <= time + 1e-9 { try? presenter.receive(entry.value, at: entry.start) }
        return presenter.frame(at: time, unixTime: 0)
    }

    static func drawn(_ list: DisplayList) -> [Drawn] {
        var out: [Drawn] = []
        if let chrome = list.chrome { out.append(Drawn(path: "#chrome", rect: chrome.rect, opacity: chrome.opacity)) }
        out += list.items.map { Drawn(path: $0.path, key: $0.sharedKey, rect: $0.rect, opacity: $0.opacity) }
        return out
    }

    /// Differences beyond 1 point (rects) or 0.05 (opacity) between what `svg` shows and what
    /// `model` draws, ignoring what neither shows (opacity at most 0.05, or no size).
    static func mismatches(svg: [Drawn], model: [Drawn]) -> [String] {
        func visible(_ d: Drawn) -> Bool { d.opacity > 0.05 && (d.rect.width > 0.5 || d.rect.height > 0.5) }
        func close(_ a: Drawn, _ b: Drawn) -> Bool {
            a.path == b.path && a.key == b.key && abs(a.opacity - b.opacity) <= 0.05
                && [(a.rect.x, b.rect.x), (a.rect.y, b.rect.y), (a.rect.width, b.rect.width), (a.rect.height, b.rect.height)]
                .allSatisfy { abs($0.0 - $0.1) <= 1 }
        }
        var out: [String] = []
        for item in model where visible(item) && !svg.contains(where: { close($0, item) }) {
            out.append("the model draws \(item); the SVG shows \(svg.filter { $0.path == item.path && $0.key == item.key })")
        }
        for item in svg where visible(item) && !model.contains(where: { close($0, item) }) {
            out.append("the SVG shows \(item); the model draws \(model.filter { $0.path == item.path && $0.key == item.key })")
        }
        return out
    }

    // MARK: Reading the SVG's tracks

    let elements: [SVGRecordingTests.Element]
    let duration: Double

    init(_ elements: [SVGRecordingTests.Element]) {
        self.elements = elements
        duration = elements.first?.attributes["data-duration"].flatMap(Double.init) ?? 1
    }

    /// An attribute's value at `time`: its `<animate>` played linearly, else the attribute.
    func value(_ element: SVGRecordingTests.Element, _ attribute: String, at time: Double) -> Double? {
        guard let animate = element.animate(attribute) else { return element.attributes[attribute].flatMap(Double.init) }
        let values = (animate.attributes["values"] ?? "").split(separator: ";").compactMap { Double($0) }
        let times = (animate.attributes["keyTimes"] ?? "").split(separator: ";").compactMap { Double($0) }.map { $0 * duration }
        guard values.count == times.count, let first = values.first else { return nil }
        guard time > times[0] else { return first }
        for index in 1..<times.count where time <= times[index] {
            let span = times[index] - times[index - 1]
            let f = span > 0 ? (time - times[index - 1]) / span : 1
            return values[index - 1] + (values[index] - values[index - 1]) * f
        }
        return values.last
    }

    func rect(_ element: SVGRecordingTests.Element, at time: Double) -> Rect? {
        guard let x = value(element, "x", at: time), let y = value(element, "y", at: time),
              let w = value(element, "width", at: time), let h = value(element, "height", at: time) else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// The chrome and every item as the SVG shows them at `time`.
    func drawn(at time: Double) -> [Drawn] {
        var out: [Drawn] = []
        if let chrome = elements.first(where: { $0.attributes["id"] == "chrome" }), let rect = rect(chrome, at: time) {
            out.append(Drawn(path: "#chrome", rect: rect, opacity: value(chrome, "opacity", at: time) ?? 1))
        }
        for group in elements where group.name == "g" && group.attributes["id"]?.hasPrefix("item-") == true {
            guard let box = group.children.first(where: { $0.attributes["class"] == "box" }), let rect = rect(box, at: time) else { continue }
            out.append(Drawn(path: group.attributes["data-path"] ?? "", key: group.attributes["data-key"], rect: rect,
                             opacity: value(group, "opacity", at: time) ?? 0))
        }
        return out
    }
}
