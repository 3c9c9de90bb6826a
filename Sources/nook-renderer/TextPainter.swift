import CGtk
import NookCore
import NookRenderModel

/// Text with Pango: the plan's `font_family` (the family the broker measured in; the config's
/// `font` for a plan without one), at the plan's size in points (one point = one application
/// pixel), weight, colour and tabular digits.
///
/// Glyphs are placed unhinted and unrounded (`PangoMetrics.unhinted`), as the broker measures
/// them, so a line is exactly as wide as the box the broker laid out for it (within a pixel).
struct TextPainter {
    static let defaultFamily = Theme.defaultFontFamily
    var family = TextPainter.defaultFamily
    /// The layouts kept between frames (shared by copies of this painter).
    let layouts = TextLayoutCache()

    init(family: String = TextPainter.defaultFamily) {
        self.family = family
    }

    /// How much wider than its box a line may come out and still not wrap or ellipsize: the
    /// broker's width and Pango's agree within a pixel (`--measure-text`).
    static let fitTolerance = 1.0

    /// Draws `string` in `rect`. When `layoutSize` is set (a `scale` shared element), the
    /// text is laid out in that size and the result scaled into `rect`.
    func draw(_ string: String, style: TextStyle, in rect: Rect, layoutSize: Size?, on cr: OpaquePointer) {
        let box = layoutSize ?? rect.size
        guard box.width > 0, box.height > 0 else { return }
        // Scaled as drawn: by the painter (a shared element in flight) or into `rect` here.
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        let scaleX = matrix.xx * (layoutSize == nil ? 1 : rect.width / box.width)
        let scaleY = matrix.yy * (layoutSize == nil ? 1 : rect.height / box.height)
        let scaling = abs(scaleX - 1) > 0.001 || abs(scaleY - 1) > 0.001 || matrix.xy != 0 || matrix.yx != 0
        let layout = layouts.layout(string, style: style, family: family, box: box, scaling: scaling) { layout in
            Self.configure(layout, string, style: style, family: family)
            // Wrapped into the broker's box: as many lines as its height holds (Pango's lines
            // are as tall as the broker's), the last one ellipsized when text is left over.
            pango_layout_set_width(layout, Self.pangoUnits(box.width + Self.fitTolerance))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_height(layout, Self.pangoUnits(Self.visibleHeight(of: layout, box: box, lineLimit: style.lineLimit)))
            switch style.alignment {
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            default: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            }
        }
        let height = Self.logicalSize(layout).height
        cairo_save(cr)
        cairo_translate(cr, rect.minX, rect.minY)
        if layoutSize != nil { cairo_scale(cr, rect.width / box.width, rect.height / box.height) }
        // Centred vertically in the broker's box (they agree; this absorbs rounding).
        cairo_translate(cr, 0, (box.height - height) / 2)
        cairo_move_to(cr, 0, 0)
        cairo_set_source_rgba(cr, style.color.red, style.color.green, style.color.blue, style.color.alpha)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// The height the text may fill: the box's, or fewer lines for a `line_limit` (Pango's own
    /// negative heights count lines per paragraph, not in all). Laid out once without a bound
    /// to learn its line height, only when there is a limit.
    static func visibleHeight(of layout: OpaquePointer, box: Size, lineLimit: Int?) -> Double {
        let boxHeight = box.height + fitTolerance
        guard let lineLimit, lineLimit > 0 else { return boxHeight }
        // Unbounded (a negative height, Pango's default, is one line per paragraph).
        pango_layout_set_height(layout, Int32.max)
        let lines = Int(pango_layout_get_line_count(layout))
        guard lines > lineLimit else { return boxHeight }
        let lineHeight = logicalSize(layout).height / Double(lines)
        return min(boxHeight, Double(lineLimit) * lineHeight + fitTolerance)
    }

    /// Pango's size for one unwrapped line, in points, unrounded.
    /// Lays out and draws a sample off screen in the weights views use, so fontconfig's
    /// cache and the faces are loaded before the first real text: otherwise the first
    /// expanded paint (the first text of a session) takes about 20 ms and drops a frame.
    func warmUp() {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1), let cr = cairo_create(surface) else { return }
        for weight in [400, 600, 700] {
            draw("Ag 0:00 …", style: TextStyle(size: 13, weight: weight, monospacedDigits: true), in: Rect(x: 0, y: 0, width: 100, height: 20),
                 layoutSize: nil, on: cr)
        }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    func measure(_ string: String, style: TextStyle, on cr: OpaquePointer) -> Size {
        let layout = Self.layout(string, style: style, family: family, on: cr)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return Self.logicalSize(layout)
    }

    static func logicalSize(_ layout: OpaquePointer) -> Size {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Size(width: Double(logical.width) / Double(PANGO_SCALE), height: Double(logical.height) / Double(PANGO_SCALE))
    }

    static func pangoUnits(_ points: Double) -> Int32 {
        Int32(min(max(points * Double(PANGO_SCALE), 0), Double(Int32.max)))
    }

    static func layout(_ string: String, style: TextStyle, family: String, on cr: OpaquePointer) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        PangoMetrics.unhinted(pango_layout_get_context(layout))
        pango_layout_context_changed(layout)
        configure(layout, string, style: style, family: family)
        return layout
    }

    /// The text, font and attributes of `style` on `layout`.
    static func configure(_ layout: OpaquePointer, _ string: String, style: TextStyle, family: String) {
        pango_layout_set_text(layout, string, -1)
        let font = pango_font_description_new()
        pango_font_description_set_family(font, family)
        pango_font_description_set_absolute_size(font, style.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, PangoWeight(rawValue: UInt32(max(100, min(1000, style.weight)))))
        if style.italic { pango_font_description_set_style(font, PANGO_STYLE_ITALIC) }
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if style.monospacedDigits || style.underline {
            let attributes = pango_attr_list_new()
            if style.monospacedDigits { pango_attr_list_insert(attributes, pango_attr_font_features_new("tnum")) }
            if style.underline { pango_attr_list_insert(attributes, pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
    }
}

/// Pango set to lay glyphs out the way the broker measures them.
enum PangoMetrics {
    /// No hinted metrics and no rounding of glyph positions to whole pixels: advances are the
    /// fonts' own, scaled, as HarfBuzz gives them to the broker.
    static func unhinted(_ context: OpaquePointer?) {
        guard let context else { return }
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        if let current = pango_cairo_context_get_font_options(context) { cairo_font_options_merge(options, current) }
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        pango_context_set_round_glyph_positions(context, 0)
    }
}
