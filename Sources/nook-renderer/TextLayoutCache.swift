import CGtk
import NookCore
import NookRenderModel

/// Pango layouts kept between frames: a transition draws the same strings in the same boxes
/// frame after frame, and shaping them again each time was a good part of a frame's paint.
///
/// Every layout is made in one long-lived Pango context, set once a paint to the surface's
/// font options (`begin(paintingOn:)`, on the paint's untransformed context) and to the
/// broker's unhinted metrics, so a kept layout is exactly what a fresh one would be. Drawing
/// moves, clips and scales the Cairo context; the layout does not depend on that.
final class TextLayoutCache {
    struct Key: Hashable {
        var string: String
        /// The style with its colour left out: colour does not change the layout.
        var style: TextStyle
        var family: String
        /// The box's size in 1/64 pt: sizes that differ below that lay out alike.
        var width: Int64
        var height: Int64
        var scaling: Bool
    }

    /// At most this many layouts; past it the cache starts again (a transition reuses a few
    /// dozen, a new plan's strings replace the old ones).
    static let capacity = 512

    private var layouts: [Key: OpaquePointer] = [:]
    /// Text at rest: the display's hinting. Text drawn scaled (a shared element in flight, a
    /// new size every frame): no hinting, whose bytecode FreeType would otherwise run again
    /// for every size of every glyph (the largest cost of a transition's paint after the
    /// shape; an unhinted glyph is what a scaled one looks like anyway).
    private lazy var context: OpaquePointer = Self.makeContext()
    private lazy var scalingContext: OpaquePointer = Self.makeContext()

    private static func makeContext() -> OpaquePointer {
        let context = pango_font_map_create_context(pango_cairo_font_map_get_default())!
        PangoMetrics.unhinted(context)
        return context
    }
    private var surfaceOptions: OpaquePointer?

    deinit {
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        if let surfaceOptions { cairo_font_options_destroy(surfaceOptions) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(scalingContext))
    }

    /// Brings the context's font options in line with the surface `cr` draws on (antialiasing
    /// and hinting from the display); when they change, every kept layout goes.
    func begin(paintingOn cr: OpaquePointer) {
        let options = cairo_font_options_create()!
        if let target = cairo_get_target(cr) { cairo_surface_get_font_options(target, options) }
        if let surfaceOptions, cairo_font_options_equal(surfaceOptions, options) != 0 {
            cairo_font_options_destroy(options)
            return
        }
        if let surfaceOptions { cairo_font_options_destroy(surfaceOptions) }
        surfaceOptions = options
        let merged = cairo_font_options_copy(options)!
        defer { cairo_font_options_destroy(merged) }
        cairo_font_options_set_hint_metrics(merged, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, merged)
        pango_context_set_round_glyph_positions(context, 0)
        cairo_font_options_set_hint_style(merged, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(scalingContext, merged)
        pango_context_set_round_glyph_positions(scalingContext, 0)
        removeAll()
    }

    /// The layout of `string` in `style` wrapped into `box`, made by `make` the first time;
    /// `scaling`: it is drawn scaled (unhinted glyphs).
    func layout(_ string: String, style: TextStyle, family: String, box: Size, scaling: Bool, make: (OpaquePointer) -> Void) -> OpaquePointer {
        var plain = style
        plain.color = RGBA(red: 0, green: 0, blue: 0)
        let key = Key(string: string, style: plain, family: family, width: Self.units(box.width), height: Self.units(box.height), scaling: scaling)
        if let kept = layouts[key] { return kept }
        if layouts.count >= Self.capacity { removeAll() }
        let layout = pango_layout_new(scaling ? scalingContext : context)!
        make(layout)
        layouts[key] = layout
        return layout
    }

    private func removeAll() {
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        layouts.removeAll(keepingCapacity: true)
    }

    private static func units(_ points: Double) -> Int64 {
        guard points.isFinite else { return 0 }
        return Int64(max(-1e12, min(1e12, points * 64)).rounded())
    }
}
