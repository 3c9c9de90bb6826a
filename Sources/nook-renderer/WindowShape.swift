import CGtk
import NookCore
import NookRenderModel

/// What a window that no compositor blends (X11 without a compositing manager) shows: the
/// chrome's outline and whatever is drawn beside it (capsules), set as the window's X shape so
/// the desktop shows through everywhere else, instead of a band painted grey.
struct WindowShape: Hashable {
    /// The chrome's shapes (both during a dissolve).
    var chrome: [NookRenderModel.ChromeShape]
    /// Items that reach outside the chrome's bounds, as their rects.
    var beside: [Rect]
    /// Of those, the round ones (a capsule's disc, the close control's): cut to their outline
    /// (each rect with its corner radius), so no square of window background shows around
    /// them; what is drawn inside one adds nothing.
    var rounded: [RoundedRect] = []

    struct RoundedRect: Hashable {
        var rect: Rect
        var radius: Double
    }

    /// Nothing at all: the window shows nothing (hidden nook, before the first frame).
    static let empty = WindowShape(chrome: [], beside: [])

    init(chrome: [NookRenderModel.ChromeShape], beside: [Rect]) {
        self.chrome = chrome
        self.beside = beside
    }

    init(_ list: DisplayList) {
        chrome = list.chromeLayers.filter { $0.opacity > 0.001 }
        let bounds = chrome.map(\.rect).reduce(nil as Rect?) { union, rect in
            guard let union else { return rect }
            let minX = min(union.minX, rect.minX), minY = min(union.minY, rect.minY)
            return Rect(x: minX, y: minY, width: max(union.maxX, rect.maxX) - minX, height: max(union.maxY, rect.maxY) - minY)
        }
        let outside = list.items.filter { item in
            item.opacity > 0.001 && item.rect.width > 0 && item.rect.height > 0 && !(bounds?.contains(item.rect) ?? false)
        }
        for item in outside {
            guard case .shape(let kind, _, let cornerRadius) = item.content else { continue }
            let half = min(item.rect.width, item.rect.height) / 2
            switch kind {
            case .circle, .capsule: rounded.append(RoundedRect(rect: item.rect, radius: half))
            case .roundedRect: rounded.append(RoundedRect(rect: item.rect, radius: min(cornerRadius, half)))
            case .rect: break
            }
        }
        let discs = rounded.map(\.rect)
        beside = outside.filter { item in
            // A round shape is cut to its outline; content drawn within one needs nothing more.
            if case .shape(let kind, _, _) = item.content, kind != .rect { return false }
            return !discs.contains { $0.contains(item.rect) }
        }.map(\.rect)
        // The keyboard's ring around a capsule or the pill reaches outside them.
        if let ring = list.focusRing, !(bounds?.contains(ring.rect) ?? false) {
            let grow = NookRenderModel.FocusRing.width
            beside.append(Rect(x: ring.rect.minX - grow, y: ring.rect.minY - grow, width: ring.rect.width + 2 * grow, height: ring.rect.height + 2 * grow))
        }
    }

    /// Sets the shape on `widget`'s window (X11: XShapeCombineRegion on the bounding shape).
    /// Through GTK, which otherwise resets a toplevel's shape on every size allocation.
    ///
    /// The mask covers only what the shape can reach (its bounds), not the whole window:
    /// turning a mask into a region reads every pixel, and over the whole 1920x486 window that
    /// was half the renderer's CPU during a transition (docs/PERFORMANCE.md, "Footprint").
    func apply(to widget: UnsafeMutablePointer<GtkWidget>, size: Size) {
        let window = Rect(x: 0, y: 0, width: max(1, min(size.width, 16_384).rounded(.up)), height: max(1, min(size.height, 16_384).rounded(.up)))
        guard let bounds = maskBounds(within: window) else {
            // Nothing shows: an empty shape.
            guard let empty = cairo_region_create() else { return }
            defer { cairo_region_destroy(empty) }
            gtk_widget_shape_combine_region(widget, empty)
            return
        }
        // A 1-bit mask of exactly what is painted, turned into a region of rectangles.
        guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A1, Int32(bounds.width), Int32(bounds.height)) else { return }
        defer { cairo_surface_destroy(mask) }
        guard let cr = cairo_create(mask) else { return }
        cairo_translate(cr, -bounds.minX, -bounds.minY)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        for shape in chrome {
            Painter.chromePath(shape, on: cr)
            cairo_fill(cr)
        }
        for rect in beside {
            cairo_rectangle(cr, rect.minX.rounded(.down), rect.minY.rounded(.down), rect.width.rounded(.up) + 1, rect.height.rounded(.up) + 1)
            cairo_fill(cr)
        }
        for shape in rounded {
            Shapes.roundedRect(shape.rect, radius: shape.radius, on: cr)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        cairo_surface_flush(mask)
        guard let region = gdk_cairo_region_create_from_surface(mask) else { return }
        defer { cairo_region_destroy(region) }
        cairo_region_translate(region, Int32(bounds.minX), Int32(bounds.minY))
        gtk_widget_shape_combine_region(widget, region)
    }

    /// The whole pixels the shape can cover (each rect grown by the pixel the rounding of
    /// `beside` adds), inside `window`; nil when it covers none.
    func maskBounds(within window: Rect) -> Rect? {
        let rects = chrome.map(\.rect) + rounded.map(\.rect) + beside.map { Rect(x: $0.minX, y: $0.minY, width: $0.width + 2, height: $0.height + 2) }
        guard !rects.isEmpty else { return nil }
        let minX = max(window.minX, (rects.map(\.minX).min() ?? 0).rounded(.down) - 1)
        let minY = max(window.minY, (rects.map(\.minY).min() ?? 0).rounded(.down) - 1)
        let maxX = min(window.maxX, (rects.map(\.maxX).max() ?? 0).rounded(.up) + 1)
        let maxY = min(window.maxY, (rects.map(\.maxY).max() ?? 0).rounded(.up) + 1)
        guard maxX > minX, maxY > minY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
