import NookCore

/// What a frame must repaint: the union of the previous and current rects of everything that
/// changed between two display lists (moving or fading items, changed content, the chrome when
/// its shape changes), so a transition repaints the moving parts, not the whole surface.
public enum FrameDamage {
    /// Share of the surface above which one full repaint is cheaper than many rects.
    public static let fullRepaintShare = 0.5
    /// Antialiased edges reach a little outside a rect.
    static let edge = 2.0

    /// The rects to repaint (whole pixels, inside `bounds`), or nil for the whole surface: no
    /// previous frame, controls or the focus ring changed, or the damage covers more than
    /// `fullRepaintShare` of it. Empty when nothing changed.
    public static func rects(from previous: DisplayList?, to current: DisplayList, bounds: Size) -> [Rect]? {
        guard let previous, previous.controls == current.controls, previous.focusRing == current.focusRing else { return nil }
        var damaged: [Rect] = []
        if previous.chromeLayers != current.chromeLayers {
            damaged += (previous.chromeLayers + current.chromeLayers).map(\.rect)
        }
        let before = keyed(previous.items), after = keyed(current.items)
        for (key, item) in after where before[key] != item {
            damaged.append(item.rect)
            if let old = before[key] { damaged.append(old.rect) }
        }
        for (key, item) in before where after[key] == nil { damaged.append(item.rect) }
        let clipped = damaged.compactMap { pixelRect($0, in: bounds) }
        let area = clipped.reduce(0.0) { $0 + $1.width * $1.height }
        guard area <= bounds.width * bounds.height * fullRepaintShare else { return nil }
        return clipped
    }

    /// Items by path, the shared key and their order among equals (a cross-fade's two copies).
    private static func keyed(_ items: [DrawItem]) -> [String: DrawItem] {
        var seen: [String: Int] = [:]
        var result: [String: DrawItem] = [:]
        for item in items {
            let base = item.path + "|" + (item.sharedKey ?? "")
            let index = seen[base, default: 0]
            seen[base] = index + 1
            result[base + "|\(index)"] = item
        }
        return result
    }

    /// `rect` grown by the antialiasing edge, rounded out to whole pixels and cut to `bounds`;
    /// nil when nothing of it is inside. Non-finite rects cover the whole surface.
    static func pixelRect(_ rect: Rect, in bounds: Size) -> Rect? {
        guard [rect.minX, rect.minY, rect.maxX, rect.maxY].allSatisfy(\.isFinite) else {
            return Rect(x: 0, y: 0, width: bounds.width, height: bounds.height)
        }
        let minX = max(0, (rect.minX - edge).rounded(.down)), minY = max(0, (rect.minY - edge).rounded(.down))
        let maxX = min(bounds.width, (rect.maxX + edge).rounded(.up)), maxY = min(bounds.height, (rect.maxY + edge).rounded(.up))
        guard maxX > minX, maxY > minY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
