import NookCore

/// How tall the renderer's layer-shell surface needs to be: as tall as what is drawn, not the
/// top 45 % of the output. On Wayland every frame of a transition is a fresh shared-memory
/// buffer the size of the surface (GTK 3 reuses one only once the compositor has released it,
/// and wlroots holds the last one committed), and each of its pages is faulted in when painted:
/// a surface of the chrome's height costs that much less a frame (docs/PERFORMANCE.md).
///
/// The surface keeps its top-left at the display's, so display points stay window points;
/// only its height changes, in steps of `step`, and only when a plan needs more room or once
/// a transition has settled in less.
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
        let wanted = max(lowest * (1 + overshootShare), drawn) + margin
        guard wanted.isFinite, full.isFinite, full > 0 else { return max(full, step) }
        return min(full, max(step, (wanted / step).rounded(.up) * step))
    }

    /// The height once at rest, with `drawn` the bottom of the settled frame: no headroom for
    /// motion, as nothing moves.
    public static func restingHeight(drawn: Double, full: Double) -> Double {
        guard drawn.isFinite, full.isFinite, full > 0 else { return max(full, step) }
        return min(full, max(step, ((drawn + margin) / step).rounded(.up) * step))
    }
}
