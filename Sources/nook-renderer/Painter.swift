import CGtk
import NookCore
import NookRenderModel

/// Paints a `DisplayList` with Cairo: the chrome (`chromeLayers`), then each item in painter's order, each in
/// its clip and opacity group. Knows nothing about plans or time beyond what the list says.
///
/// Coordinates: the list is in display points; `origin` is where the window's top-left sits
/// on the display, so everything is translated by minus that.
struct Painter {
    var origin: Point
    /// Unix seconds of this frame, for custom views that animate by themselves.
    var unixTime: Double
    var images: ImageCache
    var text: TextPainter
    /// The chrome's fill (the config's `colors.chrome`), for the chrome and the capsules.
    var chromeColor = RGBA.black

    func paint(_ list: DisplayList, on cr: OpaquePointer) {
        cairo_save(cr)
        cairo_translate(cr, -origin.x, -origin.y)
        // One opaque shape, or during a Reduce Motion dissolve two, in the order the model
        // gives: the fading larger shape first, the opaque smaller one over it.
        for shape in list.chromeLayers where shape.opacity > 0.001 {
            Self.chromePath(shape, on: cr)
            cairo_set_source_rgba(cr, chromeColor.red, chromeColor.green, chromeColor.blue, chromeColor.alpha * min(shape.opacity, 1))
            cairo_fill(cr)
        }
        for item in list.items where item.opacity > 0.001 && item.rect.width > 0 && item.rect.height > 0 {
            paint(item, on: cr)
        }
        if let ring = list.focusRing { paint(ring, on: cr) }
        cairo_restore(cr)
    }

    /// The keyboard focus ring: a rounded outline over everything, in the chrome's clip.
    private func paint(_ ring: FocusRing, on cr: OpaquePointer) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        Self.clip(to: ring.clip, on: cr)
        // Inset by half the line, so the stroke lies within the ring's rect.
        let half = FocusRing.width / 2
        let rect = Rect(x: ring.rect.x + half, y: ring.rect.y + half, width: max(0, ring.rect.width - FocusRing.width),
                        height: max(0, ring.rect.height - FocusRing.width))
        Shapes.roundedRect(rect, radius: max(0, ring.cornerRadius - half), on: cr)
        cairo_set_line_width(cr, FocusRing.width)
        cairo_set_source_rgba(cr, FocusRing.color.red, FocusRing.color.green, FocusRing.color.blue, FocusRing.color.alpha)
        cairo_stroke(cr)
    }

    /// The chrome's outline: top edge flush with the display, bottom corners rounded.
    static func chromePath(_ chrome: NookRenderModel.ChromeShape, on cr: OpaquePointer) {
        let rect = chrome.rect
        let radius = max(0, min(chrome.radius, rect.width / 2, rect.height))
        cairo_new_path(cr)
        cairo_move_to(cr, rect.minX, rect.minY)
        cairo_line_to(cr, rect.maxX, rect.minY)
        cairo_line_to(cr, rect.maxX, rect.maxY - radius)
        cairo_arc(cr, rect.maxX - radius, rect.maxY - radius, radius, 0, .pi / 2)
        cairo_line_to(cr, rect.minX + radius, rect.maxY)
        cairo_arc(cr, rect.minX + radius, rect.maxY - radius, radius, .pi / 2, .pi)
        cairo_close_path(cr)
    }

    /// Clips what follows to the chrome's outline, when there is a clip.
    static func clip(to chrome: NookRenderModel.ChromeShape?, on cr: OpaquePointer) {
        guard let chrome else { return }
        chromePath(chrome, on: cr)
        cairo_clip(cr)
    }

    private func paint(_ item: DrawItem, on cr: OpaquePointer) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        Self.clip(to: item.clip, on: cr)
        let grouped = item.opacity < 0.999
        if grouped { cairo_push_group(cr) }
        paintContent(item, on: cr)
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, item.opacity)
        }
    }

    private func paintContent(_ item: DrawItem, on cr: OpaquePointer) {
        let rect = item.rect
        switch item.content {
        case .text(let string, let style):
            text.draw(string, style: style, in: rect, layoutSize: item.layoutSize, on: cr)
        case .image(let source, let tint):
            images.draw(source, tint: tint, in: rect, on: cr)
        case .shape(let kind, var fill, let cornerRadius):
            // Capsules beside the pill are chrome too.
            if item.path.hasPrefix("capsule:"), fill == .black { fill = chromeColor }
            Shapes.path(kind, in: rect, cornerRadius: cornerRadius, on: cr)
            cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha)
            cairo_fill(cr)
        case .progress(let fraction, let style, let tint):
            Shapes.progress(fraction, style: style, tint: tint, in: rect, on: cr)
        case .custom(let name, let properties):
            CustomViews.draw(name, properties: properties, in: rect, unixTime: unixTime, images: images, on: cr)
        }
    }
}

/// Shapes and progress indicators.
enum Shapes {
    static func path(_ kind: ShapeKind, in rect: Rect, cornerRadius: Double, on cr: OpaquePointer) {
        switch kind {
        case .rect: roundedRect(rect, radius: 0, on: cr)
        case .roundedRect: roundedRect(rect, radius: cornerRadius, on: cr)
        case .capsule: roundedRect(rect, radius: min(rect.width, rect.height) / 2, on: cr)
        case .circle:
            cairo_new_path(cr)
            cairo_arc(cr, rect.midX, rect.midY, min(rect.width, rect.height) / 2, 0, 2 * .pi)
            cairo_close_path(cr)
        }
    }

    static func roundedRect(_ rect: Rect, radius: Double, on cr: OpaquePointer) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        cairo_new_path(cr)
        cairo_arc(cr, rect.minX + r, rect.minY + r, r, .pi, 1.5 * .pi)
        cairo_arc(cr, rect.maxX - r, rect.minY + r, r, 1.5 * .pi, 2 * .pi)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, 0.5 * .pi)
        cairo_arc(cr, rect.minX + r, rect.maxY - r, r, 0.5 * .pi, .pi)
        cairo_close_path(cr)
    }

    static func progress(_ fraction: Double, style: ProgressStyle, tint: RGBA, in rect: Rect, on cr: OpaquePointer) {
        let value = max(0, min(1, fraction.isFinite ? fraction : 0))
        switch style {
        case .linear:
            // A bar as thick as the rect allows, up to 4 points, centred vertically.
            let thickness = min(rect.height, 4)
            let track = Rect(x: rect.minX, y: rect.midY - thickness / 2, width: rect.width, height: thickness)
            roundedRect(track, radius: thickness / 2, on: cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.2)
            cairo_fill(cr)
            if value > 0 {
                roundedRect(Rect(x: track.minX, y: track.minY, width: max(thickness, track.width * value), height: thickness),
                            radius: thickness / 2, on: cr)
                cairo_set_source_rgba(cr, tint.red, tint.green, tint.blue, tint.alpha)
                cairo_fill(cr)
            }
        case .circular:
            let lineWidth = max(2, min(rect.width, rect.height) * 0.12)
            let radius = min(rect.width, rect.height) / 2 - lineWidth / 2
            guard radius > 0 else { return }
            cairo_set_line_width(cr, lineWidth)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_new_path(cr)
            cairo_arc(cr, rect.midX, rect.midY, radius, 0, 2 * .pi)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.2)
            cairo_stroke(cr)
            if value > 0 {
                cairo_new_path(cr)
                cairo_arc(cr, rect.midX, rect.midY, radius, -.pi / 2, -.pi / 2 + 2 * .pi * value)
                cairo_set_source_rgba(cr, tint.red, tint.green, tint.blue, tint.alpha)
                cairo_stroke(cr)
            }
        }
    }
}
