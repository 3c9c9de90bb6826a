import NookCore
import NookRenderModel

/// What `PlanPresenter` draws over a recording, sampled at a fixed frame rate: one set of
/// tracks for the chrome, one for a dissolve's fading chrome, and one per display item.
///
/// An item is known across frames by its path, shared key, content and how many items with
/// those came before it in the same frame (an old and a new copy of one path cross-fade as
/// two items). Its opacity is 0 in every frame that does not draw it.
struct FrameTracks {
    /// A chrome shape's tracks; while it is not drawn it has no size and opacity 0.
    struct ShapeTracks {
        var x = Track(), y = Track(), width = Track(), height = Track(), radius = Track(), opacity = Track()

        mutating func add(_ shape: NookRenderModel.ChromeShape?, at time: Double) {
            guard let shape else {
                // Shrunk to its top centre (the hidden point), where it was last drawn.
                if let left = x.last, let wide = width.last { x.add(time, left + wide / 2) }
                for track in [\ShapeTracks.width, \.height, \.opacity] { self[keyPath: track].add(time, 0) }
                return
            }
            x.add(time, shape.rect.x)
            y.add(time, shape.rect.y)
            width.add(time, shape.rect.width)
            height.add(time, shape.rect.height)
            radius.add(time, shape.radius)
            opacity.add(time, shape.opacity)
        }
    }

    /// Which chrome an item is clipped to.
    enum Clip { case none, chrome, fading }

    struct Item {
        var path: String
        var sharedKey: String?
        var content: DrawContent
        var clip: Clip
        var x = Track(), y = Track(), width = Track(), height = Track(), opacity = Track()
        /// Text only: its size, scaled with the item when it is laid out at another size, and
        /// its baseline.
        var fontSize = Track(), baseline = Track()
    }

    var chrome = ShapeTracks()
    var fading = ShapeTracks()
    var hasDissolve = false
    var items: [Item] = []
    /// Everything any frame draws.
    var drawn: [Rect] = []

    init(timeline: RecordingTimeline, frameRate: Double) {
        let rate = frameRate.isFinite && frameRate > 0 ? min(frameRate, 240) : 60
        var presenter = PlanPresenter()
        var next = 0
        var known: [String: Int] = [:]
        let frames = Int((timeline.total * rate).rounded(.up))
        for frame in 0...frames {
            let time = min(Double(frame) / rate, timeline.total)
            while next < timeline.entries.count, timeline.entries[next].start <= time + 1e-9 {
                try? presenter.receive(timeline.entries[next].value, at: timeline.entries[next].start)
                next += 1
            }
            add(presenter.frame(at: time, unixTime: 0), at: time, step: 1 / rate, known: &known)
        }
    }

    private mutating func add(_ list: DisplayList, at time: Double, step: Double, known: inout [String: Int]) {
        chrome.add(list.chrome, at: time)
        fading.add(list.fadingChrome, at: time)
        if list.fadingChrome != nil { hasDissolve = true }
        drawn += [list.chrome?.rect, list.fadingChrome?.rect].compactMap { $0 }
        var seen: [String: Int] = [:]
        var present: Set<Int> = []
        for item in list.items {
            let base = "\(item.path)|\(item.sharedKey ?? "")|\(item.content)"
            let occurrence = seen[base, default: 0]
            seen[base] = occurrence + 1
            let key = base + "|\(occurrence)"
            let index: Int
            if let found = known[key] {
                index = found
            } else {
                index = items.count
                known[key] = index
                var created = Item(path: item.path, sharedKey: item.sharedKey, content: item.content, clip: Self.clip(of: item, in: list))
                created.opacity.add(0, 0)
                if time > 0 { created.opacity.add(time - step, 0) }
                items.append(created)
            }
            present.insert(index)
            items[index].x.add(time, item.rect.x)
            items[index].y.add(time, item.rect.y)
            items[index].width.add(time, item.rect.width)
            items[index].height.add(time, item.rect.height)
            items[index].opacity.add(time, item.opacity)
            if case .text(_, let style) = item.content {
                let scale = item.layoutSize.map { $0.height > 0 ? item.rect.height / $0.height : 1 } ?? 1
                items[index].fontSize.add(time, style.size * scale)
                items[index].baseline.add(time, item.rect.y + min(item.rect.height, style.size * scale) * 0.85)
            }
            if item.rect.width > 0 || item.rect.height > 0 { drawn.append(item.rect) }
        }
        for index in items.indices where !present.contains(index) { items[index].opacity.add(time, 0) }
    }

    private static func clip(of item: DrawItem, in list: DisplayList) -> Clip {
        guard let clip = item.clip else { return .none }
        if let fading = list.fadingChrome, fading.rect == clip.rect, list.chrome?.rect != clip.rect { return .fading }
        return .chrome
    }

    /// Everything drawn, padded, at least 480 points wide.
    var bounds: Rect {
        let rects = drawn.filter { [$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) }
        guard var minX = rects.first?.x, var minY = rects.first?.y else { return Rect(x: 0, y: 0, width: 480, height: 120) }
        var maxX = minX, maxY = minY
        for r in rects {
            minX = min(minX, r.x); minY = min(minY, r.y)
            maxX = max(maxX, r.x + r.width); maxY = max(maxY, r.y + r.height)
        }
        let pad = 24.0
        let width = maxX - minX + 2 * pad
        let widened = max(width, 480)
        return Rect(x: minX - pad - (widened - width) / 2, y: minY - pad, width: widened, height: maxY - minY + 2 * pad)
    }
}
