import CGtk
import NookCore
import NookRenderModel

/// Images by icon-theme name or `file://` URI, loaded once per name and pixel size. Lives on
/// the GTK main thread only.
final class ImageCache {
    /// Device pixels per point, so icons load sharp on HiDPI monitors.
    var scale: Double = 1
    /// The colour of symbolic icons without a tint (the config's `colors.text`).
    var symbolColor = RGBA.white
    private var pixbufs: [String: OpaquePointer?] = [:]
    private var reported: Set<String> = []

    /// Draws `source` fitted into `rect` (aspect kept, centred). A `-symbolic` icon without a
    /// tint is drawn in `symbolColor` (white on the black nook by default). An image that cannot be loaded is drawn as
    /// an outline and logged once.
    func draw(_ source: String, tint: RGBA?, in rect: Rect, on cr: OpaquePointer) {
        let pixels = max(1, Int((max(rect.width, rect.height) * scale).rounded(.up)))
        guard let pixbuf = load(source, pixels: pixels) else {
            Shapes.roundedRect(Rect(x: rect.minX + 0.5, y: rect.minY + 0.5, width: rect.width - 1, height: rect.height - 1),
                               radius: 3, on: cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.35)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            return
        }
        let width = Double(gdk_pixbuf_get_width(pixbuf)), height = Double(gdk_pixbuf_get_height(pixbuf))
        let factor = min(rect.width / width, rect.height / height)
        cairo_save(cr)
        cairo_translate(cr, rect.midX - width * factor / 2, rect.midY - height * factor / 2)
        cairo_scale(cr, factor, factor)
        let symbolic = Self.iconName(source).hasSuffix("-symbolic")
        if let color = tint ?? (symbolic ? symbolColor : nil) {
            cairo_push_group(cr)
            gdk_cairo_set_source_pixbuf(cr, pixbuf, 0, 0)
            cairo_paint(cr)
            let mask = cairo_pop_group(cr)
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
        } else {
            gdk_cairo_set_source_pixbuf(cr, pixbuf, 0, 0)
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    /// SF-Symbols-style names through NookCore's one table; anything else as it is.
    static func iconName(_ source: String) -> String { SymbolNames.iconName(for: source) ?? source }

    /// The pixbuf for `source` at `pixels` (nil when it cannot be loaded).
    /// Loads one symbolic icon and lets it go, so the icon theme's index and the SVG loader
    /// are ready before the first real icon (which would otherwise slow the first paint).
    func warmUp() {
        if let pixbuf = gtk_icon_theme_load_icon(gtk_icon_theme_get_default(), "media-playback-start-symbolic", 16,
                                                 GTK_ICON_LOOKUP_FORCE_SIZE, nil) {
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
        }
    }

    func load(_ source: String, pixels: Int) -> OpaquePointer? {
        let key = "\(pixels) \(source)"
        if let cached = pixbufs[key] { return cached }
        var error: UnsafeMutablePointer<GError>?
        let pixbuf: OpaquePointer?
        if source.hasPrefix("file://") {
            if let path = g_filename_from_uri(source, nil, &error) {
                pixbuf = gdk_pixbuf_new_from_file_at_scale(path, Int32(pixels), Int32(pixels), 1, &error)
                g_free(path)
            } else {
                pixbuf = nil
            }
        } else if source.contains("://") {
            pixbuf = nil  // Remote images are not fetched: a renderer must not block on the network.
        } else {
            pixbuf = gtk_icon_theme_load_icon(gtk_icon_theme_get_default(), Self.iconName(source), Int32(pixels),
                                              GTK_ICON_LOOKUP_FORCE_SIZE, &error)
        }
        if pixbuf == nil, reported.insert(source).inserted {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "not a file:// URI or an icon name"
            Log.info("cannot load image '\(source)': \(reason); drawing an outline")
        }
        if error != nil { g_error_free(error) }
        pixbufs[key] = pixbuf
        return pixbuf
    }
}
