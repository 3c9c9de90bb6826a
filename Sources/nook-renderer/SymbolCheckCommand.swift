import CGtk
import NookCore
import NookRenderModel

/// `nook-renderer --check-symbols`: draws every name of `SymbolNames` as the renderer draws
/// it (the same `ImageCache`, white, 32 x 32 pixels) and prints one line per name:
///
///     symbol<TAB>icon<TAB>source<TAB>ink<TAB>fallback
///
/// `source` is `builtin` (drawn by `BuiltInSymbols`), the icon theme's file, or `missing`;
/// `ink` the pixels drawn (alpha over half); `fallback` is `yes` when the drawing is exactly
/// the one an unknown name gets (the generic icon). Exits 1 when any name is missing, draws
/// nothing or draws the fallback (`SymbolWalkTests`).
enum SymbolCheckCommand {
    static let pixels = 32

    /// - Parameter directory: where to write each drawing as `<symbol>.png` (and the
    ///   fallback as `fallback.png`), white on a dark tile, 64 x 64; nil writes nothing.
    static func run(writingTo directory: String? = nil) -> Int32 {
        let cache = ImageCache()
        let unknown = "nook-no-such-icon-symbolic"
        let fallback = render(unknown, cache: cache)
        if let directory { writePNG(unknown, to: "\(directory)/fallback.png", cache: cache) }
        print("symbol\ticon\tsource\tink\tfallback")
        var bad = 0
        for symbol in SymbolNames.freedesktop.keys.sorted() {
            let icon = ImageCache.iconName(symbol)
            let source = BuiltInSymbols.draws(icon) ? "builtin" : ImageCache.themeFile(of: icon, pixels: pixels) ?? "missing"
            let drawn = render(symbol, cache: cache)
            if let directory { writePNG(symbol, to: "\(directory)/\(symbol).png", cache: cache) }
            let ink = stride(from: 3, to: drawn.count, by: 4).reduce(0) { $0 + (drawn[$1] > 127 ? 1 : 0) }
            let same = drawn == fallback
            if source == "missing" || ink == 0 || same { bad += 1 }
            print("\(symbol)\t\(icon)\t\(source)\t\(ink)\t\(same ? "yes" : "no")")
        }
        print("\(SymbolNames.freedesktop.count) symbols, \(bad) drawn wrong")
        return bad == 0 ? 0 : 1
    }

    /// `source` drawn white on the nook's black, 64 x 64, as a PNG at `path`.
    static func writePNG(_ source: String, to path: String, cache: ImageCache) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_paint(cr)
        cache.draw(source, tint: .white, in: Rect(x: 8, y: 8, width: 48, height: 48), on: cr)
        cairo_destroy(cr)
        cairo_surface_write_to_png(surface, path)
    }

    /// `source` drawn white into a transparent 32 x 32 ARGB surface: its bytes.
    static func render(_ source: String, cache: ImageCache) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixels), Int32(pixels))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cache.draw(source, tint: .white, in: Rect(x: 0, y: 0, width: Double(pixels), height: Double(pixels)), on: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: stride * pixels))
    }
}
