import CGtk
import NookCore
import NookRenderModel

/// The symbols nook-renderer draws itself with Cairo: those of `SymbolNames.builtIn`, which no
/// freedesktop icon theme has (a stopwatch, a cup, a hammer, an arrow in a circle), and the
/// generic glyph drawn for an icon name when the theme has neither it nor its fallback.
///
/// Each is drawn on a 16 x 16 grid scaled to fit the rect (aspect kept, centred), in one
/// colour, like a symbolic icon.
enum BuiltInSymbols {
    /// The generic glyph: a rounded square with a smaller square inside.
    static let generic = "nook-generic-symbolic"

    static func draws(_ name: String) -> Bool { SymbolNames.builtIn.contains(name) || name == generic }

    static func draw(_ name: String, in rect: Rect, color: RGBA, on cr: OpaquePointer) {
        let side = min(rect.width, rect.height)
        guard side > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, rect.midX - side / 2, rect.midY - side / 2)
        cairo_scale(cr, side / 16, side / 16)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, 1.6)
        switch name {
        case "nook-timer-symbolic": stopwatch(cr)
        case "nook-cup-symbolic": cup(cr)
        case "nook-hammer-symbolic": hammer(cr)
        case "nook-arrow-down-circle-symbolic": arrowDownCircle(cr)
        default: genericGlyph(cr)
        }
    }

    /// A dial with a hand pointing up and the crown on top.
    private static func stopwatch(_ cr: OpaquePointer) {
        strokeCircle(cr, x: 8, y: 9.5, radius: 5.4)
        strokeLine(cr, (8, 9.5), (8, 6.2))
        strokeLine(cr, (8, 9.5), (10, 10.6))
        Shapes.roundedRect(Rect(x: 6.2, y: 1, width: 3.6, height: 1.8), radius: 0.6, on: cr)
        cairo_fill(cr)
        strokeLine(cr, (12.2, 4.4), (13.3, 3.3))
    }

    /// A cup with a handle on the right and two wisps of steam.
    private static func cup(_ cr: OpaquePointer) {
        cairo_new_path(cr)
        cairo_move_to(cr, 2.5, 7)
        cairo_line_to(cr, 11.5, 7)
        cairo_line_to(cr, 10.8, 12.6)
        cairo_curve_to(cr, 10.6, 14, 9.8, 14.6, 8.6, 14.6)
        cairo_line_to(cr, 5.4, 14.6)
        cairo_curve_to(cr, 4.2, 14.6, 3.4, 14, 3.2, 12.6)
        cairo_close_path(cr)
        cairo_fill(cr)
        cairo_new_path(cr)
        cairo_arc(cr, 11.6, 9.8, 2, -.pi / 2, .pi / 2)
        cairo_stroke(cr)
        for x in [5.5, 8.5] {
            cairo_move_to(cr, x, 5)
            cairo_curve_to(cr, x - 1, 4, x + 1, 3, x, 1.8)
            cairo_stroke(cr)
        }
    }

    /// A hammer, head up-left, the handle running down-right.
    private static func hammer(_ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_translate(cr, 8, 8)
        cairo_rotate(cr, -.pi / 4)
        cairo_translate(cr, -8, -8)
        Shapes.roundedRect(Rect(x: 7, y: 4.5, width: 2, height: 11), radius: 0.8, on: cr)
        cairo_fill(cr)
        cairo_new_path(cr)
        cairo_move_to(cr, 3, 1.8)
        cairo_line_to(cr, 11.5, 1.8)
        cairo_line_to(cr, 13.5, 3)
        cairo_line_to(cr, 11.5, 5.4)
        cairo_line_to(cr, 3, 5.4)
        cairo_close_path(cr)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// An arrow pointing down inside a circle.
    private static func arrowDownCircle(_ cr: OpaquePointer) {
        strokeCircle(cr, x: 8, y: 8, radius: 6.6)
        strokeLine(cr, (8, 4.4), (8, 11.2))
        strokeLine(cr, (5.2, 8.6), (8, 11.4), (10.8, 8.6))
    }

    /// A rounded square outline with a filled square in it: "an application".
    private static func genericGlyph(_ cr: OpaquePointer) {
        Shapes.roundedRect(Rect(x: 1.8, y: 1.8, width: 12.4, height: 12.4), radius: 3, on: cr)
        cairo_stroke(cr)
        Shapes.roundedRect(Rect(x: 5.5, y: 5.5, width: 5, height: 5), radius: 1.2, on: cr)
        cairo_fill(cr)
    }

    /// The outline of a circle round (`x`, `y`), stroked on a path of its own.
    private static func strokeCircle(_ cr: OpaquePointer, x: Double, y: Double, radius: Double) {
        cairo_new_path(cr)
        cairo_arc(cr, x, y, radius, 0, 2 * .pi)
        cairo_stroke(cr)
    }

    /// An open line from the first point through the others, stroked.
    private static func strokeLine(_ cr: OpaquePointer, _ start: (Double, Double), _ points: (Double, Double)...) {
        cairo_move_to(cr, start.0, start.1)
        for point in points { cairo_line_to(cr, point.0, point.1) }
        cairo_stroke(cr)
    }
}
