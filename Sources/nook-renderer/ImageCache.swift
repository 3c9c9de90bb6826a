import CGtk
import NookCore
import NookRenderModel

/// Images by icon-theme name or `file://` URI, loaded once per name and pixel size. Lives on
/// the GTK main thread only.
///
/// Icons come from the icon theme, on the main thread (the theme's own directories). A
/// `file://` image is loaded off the main thread by `ImageFileLoader`, which opens only a
/// regular file and checks its size and type: until it has loaded, its place is drawn as a
/// placeholder outline, and `loaded` is called (on the main thread) so the renderer redraws.
final class ImageCache {
    /// Device pixels per point, so icons load sharp on HiDPI monitors.
    var scale: Double = 1
    /// The colour of symbolic icons without a tint (the config's `colors.text`).
    var symbolColor = RGBA.white
    /// Called on the main thread when a file finished loading (whether or not it could be).
    var loaded: () -> Void = {}

    private enum Entry {
        /// On a worker; drawn as a placeholder meanwhile.
        case loading
        /// The pixbuf, or nil when it cannot be loaded (a file drawn as an outline, an icon name as the generic glyph; logged once).
        case done(OpaquePointer?)
    }

    private var entries: [String: Entry] = [:]
    private var reported: Set<String> = []
    private let files = ImageFileLoader()

    /// Draws `source` fitted into `rect` (aspect kept, centred). A `-symbolic` icon without a
    /// tint is drawn in `symbolColor` (white on the black nook by default). The renderer's own
    /// symbols (`SymbolNames.builtIn`) are drawn with Cairo. An icon name the theme lacks
    /// (`firefox` without Firefox installed) is drawn as the generic application icon at the
    /// same size (`fallbackName`), or, when the theme lacks that too, the renderer's own
    /// generic glyph (logged once). A file that is still loading, or cannot be loaded, is
    /// drawn as an outline (the latter logged once).
    func draw(_ source: String, tint: RGBA?, in rect: Rect, on cr: OpaquePointer) {
        let isFile = Self.isURI(source)
        let name = Self.iconName(source)
        if !isFile, BuiltInSymbols.draws(name) {
            BuiltInSymbols.draw(name, in: rect, color: tint ?? symbolColor, on: cr)
            return
        }
        let pixels = max(1, Int(saturating: (max(rect.width, rect.height) * scale).rounded(.up)))
        guard let pixbuf = load(source, pixels: pixels) else {
            if !isFile {
                BuiltInSymbols.draw(BuiltInSymbols.generic, in: rect, color: tint ?? symbolColor, on: cr)
                return
            }
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
        let symbolic = !isFile && Self.isSymbolic(name)
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

    /// A URI (`scheme://...`) rather than an icon name. Asked for every image of every frame:
    /// a scan of the bytes, where `String.contains` took longer than the rest of the icon's draw.
    static func isURI(_ source: String) -> Bool {
        var matched = 0
        for byte in source.utf8 {
            switch (matched, byte) {
            case (0, UInt8(ascii: ":")): matched = 1
            case (1, UInt8(ascii: "/")): matched = 2
            case (2, UInt8(ascii: "/")): return true
            default: matched = byte == UInt8(ascii: ":") ? 1 : 0
            }
        }
        return false
    }

    /// Drawn as a mask in one colour: a `-symbolic` name, or a dotted (SF-Symbols-style) name
    /// the table lacks, whose fallback is the symbolic one.
    static func isSymbolic(_ name: String) -> Bool { name.hasSuffix("-symbolic") || name.contains(".") }

    /// The generic icon drawn for an icon name the theme lacks: the symbolic executable for
    /// symbols, the full-colour one for application icons.
    static func fallbackName(for name: String) -> String {
        isSymbolic(name) ? "application-x-executable-symbolic" : "application-x-executable"
    }

    /// Where the theme has `name`, or nil (for `--check-symbols`).
    static func themeFile(of name: String, pixels: Int) -> String? {
        guard let info = gtk_icon_theme_lookup_icon(gtk_icon_theme_get_default(), name, Int32(pixels), GTK_ICON_LOOKUP_FORCE_SIZE) else {
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return gtk_icon_info_get_filename(info).map { String(cString: $0) }
    }

    /// Loads one symbolic icon and lets it go, so the icon theme's index and the SVG loader
    /// are ready before the first real icon (which would otherwise slow the first paint).
    func warmUp() {
        if let pixbuf = gtk_icon_theme_load_icon(gtk_icon_theme_get_default(), "media-playback-start-symbolic", 16,
                                                 GTK_ICON_LOOKUP_FORCE_SIZE, nil) {
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
        }
    }

    /// The pixbuf for `source` at `pixels`: nil while a file loads (the load is started on the
    /// first call) and when it cannot be loaded.
    func load(_ source: String, pixels requested: Int) -> OpaquePointer? {
        let pixels = min(requested, ImageFileLoader.maxRequestPixels)
        let key = "\(pixels) \(source)"
        switch entries[key] {
        case .done(let pixbuf)?: return pixbuf
        case .loading?: return nil
        case nil: break
        }
        if source.hasPrefix("file://") {
            var error: UnsafeMutablePointer<GError>?
            guard let path = g_filename_from_uri(source, nil, &error) else {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "not a file URI"
                if error != nil { g_error_free(error) }
                return finish(key, source: source, pixbuf: nil, problem: reason)
            }
            let file = String(cString: path)
            g_free(path)
            entries[key] = .loading
            let cache = MainThreadBox(self)
            files.load(path: file, pixels: pixels) { outcome in
                MainLoop.post { _ = cache.value.finish(key, source: source, pixbuf: outcome.pixbuf, problem: outcome.problem) }
            }
            return nil
        }
        var error: UnsafeMutablePointer<GError>?
        let pixbuf: OpaquePointer?
        if Self.isURI(source) {
            pixbuf = nil  // Remote images are not fetched: a renderer must not block on the network.
        } else {
            let name = Self.iconName(source)
            var found = gtk_icon_theme_load_icon(gtk_icon_theme_get_default(), name, Int32(pixels), GTK_ICON_LOOKUP_FORCE_SIZE, &error)
            if found == nil {
                // Not in the theme: the generic icon of the same size.
                let fallback = Self.fallbackName(for: name)
                found = gtk_icon_theme_load_icon(gtk_icon_theme_get_default(), fallback, Int32(pixels), GTK_ICON_LOOKUP_FORCE_SIZE, nil)
                if reported.insert(source).inserted {
                    let reason = error.map { String(cString: $0.pointee.message) } ?? "not found"
                    Log.info("icon '\(source)' is not in the icon theme (\(reason)); drawing the generic "
                             + (found == nil ? "glyph (the theme has no \(fallback) either)" : fallback))
                }
            }
            pixbuf = found
        }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "not a file:// URI or an icon name"
        if error != nil { g_error_free(error) }
        return finish(key, source: source, pixbuf: pixbuf, problem: pixbuf == nil ? reason : nil)
    }

    /// Keeps what came of loading `key`, logs a failure once per source, and (for a file that
    /// was loading) has the renderer draw again.
    private func finish(_ key: String, source: String, pixbuf: OpaquePointer?, problem: String?) -> OpaquePointer? {
        let wasLoading = if case .loading? = entries[key] { true } else { false }
        entries[key] = .done(pixbuf)
        if pixbuf == nil, reported.insert(source).inserted {
            Log.info("cannot load image '\(source)': \(problem ?? "unknown"); drawing an outline")
        }
        if wasLoading {
            Log.debug("image '\(source)' at \(key.prefix { $0 != " " }) px \(pixbuf == nil ? "failed" : "loaded"); drawing again")
            loaded()
        }
        return pixbuf
    }
}
