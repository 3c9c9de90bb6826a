import NookCore

/// How large the renderer's layer-shell surface needs to be: as tall and as wide as what is
/// drawn, not the top 45 % of the output. On Wayland every frame of a transition is a fresh shared-memory
/// buffer the size of the surface (GTK 3 reuses one only once the compositor has released it,
/// and wlroots holds the last one committed), and each of its pages is faulted in when painted:
/// a surface the chrome's size costs that much less a frame (docs/PERFORMANCE.md).
///
/// The surface stays anchored to the top edge only, so the compositor centres it: its top is
/// the display's, and its left edge is half the width it leaves out (`originX`). Widths keep
/// the output's parity, so that half is a whole point. Its size changes in steps of `step`,
/// and only when a plan needs more room or once a transition has settled in less.
public enum SurfaceExtent {
    /// Heights are whole multiples of this, so small changes of content resize nothing.
    public static let step = 32.0
    /// Room below a transition's lower end for a spring that overshoots it.
    public static let overshootShare = 0.25
    /// Room below everything, in points: antialiased edges, a focus ring.
    public static let margin = 16.0

    /// The lowest point anything in `list` reaches: the chrome, its items (capsules beside it
    /// included) and the focus ring. 0 for an empty list.
    public static func bottom(of list: DisplayList) -> Double {
        var bottom = 0.0
        for shape in list.chromeLayers where shape.rect.maxY.isFinite { bottom = max(bottom, shape.rect.maxY) }
        for item in list.items where item.rect.maxY.isFinite { bottom = max(bottom, item.rect.maxY) }
        if let ring = list.focusRing, ring.rect.maxY.isFinite { bottom = max(bottom, ring.rect.maxY + FocusRing.outset) }
        return bottom
    }

    /// The height for a transition between chromes ending at `from` and `to` (either nil when
    /// absent), with `drawn` the bottom of what is on screen now: room for both ends, with
    /// headroom for an overshooting spring, rounded up to a `step`, at least one step and at
    /// most `full`.
    public static func height(from: Rect?, to: Rect?, drawn: Double, full: Double) -> Double {
        let ends = [from?.maxY, to?.maxY].compactMap { $0 }.filter(\.isFinite)
        let lowest = ends.max() ?? 0
        return steppedHeight(max(lowest * (1 + overshootShare), drawn) + margin, full: full)
    }

    /// `wanted` rounded up to a step, at least one step and at most `full`.
    static func steppedHeight(_ wanted: Double, full: Double) -> Double {
        guard wanted.isFinite, full.isFinite, full > 0 else { return max(full, step) }
        return min(full, max(step, (wanted / step).rounded(.up) * step))
    }

    /// How far from `centre` anything in `list` reaches, to either side: the chrome, its items
    /// and the focus ring. 0 for an empty list.
    public static func halfWidth(of list: DisplayList, centre: Double) -> Double {
        var half = 0.0
        func reach(_ rect: Rect, outset: Double = 0) {
            guard rect.minX.isFinite, rect.maxX.isFinite else { return }
            half = max(half, centre - rect.minX + outset, rect.maxX - centre + outset)
        }
        for shape in list.chromeLayers { reach(shape.rect) }
        for item in list.items { reach(item.rect) }
        if let ring = list.focusRing { reach(ring.rect, outset: FocusRing.outset) }
        return half
    }

    /// The width for a transition between chromes at `from` and `to`, with `drawnHalf` how far
    /// from `centre` what is on screen reaches: room for both ends and for an overshoot (the
    /// controls beside a panel too), in steps, at most `full`.
    public static func width(from: Rect?, to: Rect?, drawnHalf: Double, centre: Double, full: Double) -> Double {
        let ends = [from, to].compactMap { $0 }.filter { $0.minX.isFinite && $0.maxX.isFinite }
        let half = ends.map { max(centre - $0.minX, $0.maxX - centre) }.max() ?? 0
        return centredWidth(max(half * (1 + overshootShare), drawnHalf) + margin, full: full)
    }

    /// The width at rest, with `drawnHalf` how far the settled frame reaches from the centre.
    public static func restingWidth(drawnHalf: Double, full: Double) -> Double {
        centredWidth(drawnHalf + margin, full: full)
    }

    /// Twice `half`, rounded up to a step, with `full`'s parity (what it leaves out splits into
    /// two whole halves), at least one step and at most `full`.
    static func centredWidth(_ half: Double, full: Double) -> Double {
        guard half.isFinite, full.isFinite, full >= 1 else { return max(full, step) }
        var width = max(step, (2 * half / step).rounded(.up) * step)
        if (full - width).truncatingRemainder(dividingBy: 2) != 0 { width += 1 }
        return min(full, width)
    }

    /// Where a surface `width` wide, centred on a display `full` wide, has its left edge, in
    /// display points.
    public static func originX(width: Double, full: Double) -> Double {
        width.isFinite && full.isFinite && width < full ? ((full - width) / 2).rounded(.down) : 0
    }

    /// The height once at rest, with `drawn` the bottom of the settled frame: no headroom for
    /// motion, as nothing moves.
    public static func restingHeight(drawn: Double, full: Double) -> Double {
        steppedHeight(drawn + margin, full: full)
    }
}
