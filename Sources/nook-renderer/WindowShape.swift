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
        beside = list.items.filter { item in
            item.opacity > 0.001 && item.rect.width > 0 && item.rect.height > 0 && !(bounds?.contains(item.rect) ?? false)
        }.map(\.rect)
        // The keyboard's ring around a capsule or the pill reaches outside them.
        if let ring = list.focusRing, !(bounds?.contains(ring.rect) ?? false) {
            let grow = NookRenderModel.FocusRing.width
            beside.append(Rect(x: ring.rect.minX - grow, y: ring.rect.minY - grow, width: ring.rect.width + 2 * grow, height: ring.rect.height + 2 * grow))
        }
    }

    /// Sets the shape on `widget`'s window (X11: XShapeCombineRegion on the bounding shape).
    /// Through GTK, which otherwise resets a toplevel's shape on every size allocation.
    func apply(to widget: UnsafeMutablePointer<GtkWidget>, size: Size) {
        let width = Int32(max(1, min(size.width, 16_384).rounded(.up)))
        let height = Int32(max(1, min(size.height, 16_384).rounded(.up)))
        // A 1-bit mask of exactly what is painted, turned into a region of rectangles.
        guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A1, width, height) else { return }
        defer { cairo_surface_destroy(mask) }
        guard let cr = cairo_create(mask) else { return }
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
        cairo_destroy(cr)
        cairo_surface_flush(mask)
        guard let region = gdk_cairo_region_create_from_surface(mask) else { return }
        defer { cairo_region_destroy(region) }
        gtk_widget_shape_combine_region(widget, region)
    }
}
