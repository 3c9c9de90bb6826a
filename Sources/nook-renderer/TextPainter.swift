import CGtk
import NookCore
import NookRenderModel

/// Text with Pango: the config's family (`Sans` by default, whatever the desktop's
/// fontconfig maps it to), at the plan's size in points (one point = one application pixel),
/// weight, colour and tabular digits.
struct TextPainter {
    static let defaultFamily = "Sans"
    var family = TextPainter.defaultFamily

    /// Draws `string` in `rect`. When `layoutSize` is set (a `scale` shared element), the
    /// text is laid out in that size and the result scaled into `rect`.
    func draw(_ string: String, style: TextStyle, in rect: Rect, layoutSize: Size?, on cr: OpaquePointer) {
        let box = layoutSize ?? rect.size
        guard box.width > 0, box.height > 0 else { return }
        let layout = Self.layout(string, style: style, family: family, on: cr)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var natural = (width: Int32(0), height: Int32(0))
        pango_layout_get_pixel_size(layout, &natural.width, &natural.height)
        // The broker sized the box with its own font model, a few percent off Pango's
        // (docs/renderer.md): a line up to `shrinkLimit` too wide is drawn slightly smaller
        // rather than cut; longer text wraps into the lines the box has, then ellipsizes.
        let overflow = Double(natural.width) / box.width
        let shrink = overflow > 1 && overflow <= Self.shrinkLimit ? 1 / overflow : 1
        if shrink == 1 {
            pango_layout_set_width(layout, Int32(box.width * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            // As many lines as the broker made room for (its lines are size x 1.2 tall).
            let lines = max(1, Int((box.height / (style.size * TextMetrics.lineHeightFactor)).rounded(.down)))
            pango_layout_set_height(layout, -Int32(lines))
            switch style.alignment {
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            default: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            }
        }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_save(cr)
        cairo_translate(cr, rect.minX, rect.minY)
        if layoutSize != nil { cairo_scale(cr, rect.width / box.width, rect.height / box.height) }
        // Centred vertically in the broker's box: its line height and Pango's differ.
        cairo_translate(cr, 0, (box.height - Double(height) * shrink) / 2)
        cairo_scale(cr, shrink, shrink)
        cairo_move_to(cr, 0, 0)
        cairo_set_source_rgba(cr, style.color.red, style.color.green, style.color.blue, style.color.alpha)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// How much wider than its box a line may be and still be drawn whole, made smaller.
    static let shrinkLimit = 1.25

    /// Pango's size for one unwrapped line, in points.
    func measure(_ string: String, style: TextStyle, on cr: OpaquePointer) -> Size {
        let layout = Self.layout(string, style: style, family: family, on: cr)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return Size(width: Double(width), height: Double(height))
    }

    private static func layout(_ string: String, style: TextStyle, family: String, on cr: OpaquePointer) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        pango_layout_set_text(layout, string, -1)
        let font = pango_font_description_new()
        pango_font_description_set_family(font, family)
        pango_font_description_set_absolute_size(font, style.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, PangoWeight(rawValue: UInt32(max(100, min(1000, style.weight)))))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if style.monospacedDigits {
            let attributes = pango_attr_list_new()
            pango_attr_list_insert(attributes, pango_attr_font_features_new("tnum"))
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        return layout
    }
}
