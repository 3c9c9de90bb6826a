import CGtk
import Glibc
import NookCore
import NookRenderModel

/// Drawings for custom views by name. The examples' `CoverArt` and `EqualizerBars` get real
/// drawings; any other name is drawn as a placeholder tile and logged once.
enum CustomViews {
    /// A cover without art: a saturated magenta no other part of the nook uses, so screenshot
    /// tests can find the cover by colour. (Tests/NookRendererTests keeps the same value.)
    static let coverWithoutArt = RGBA(red: 230 / 255, green: 20 / 255, blue: 140 / 255)
    static let equalizerGreen = RGBA(red: 0.25, green: 0.85, blue: 0.45)

    nonisolated(unsafe) private static var reported: Set<String> = []
    // nonisolated(unsafe): touched only while painting, on the GTK main thread.

    static func draw(_ name: String, properties: [String: String], in rect: Rect, unixTime: Double,
                     images: ImageCache, on cr: OpaquePointer) {
        switch name {
        case "CoverArt": coverArt(properties, in: rect, images: images, on: cr)
        case "EqualizerBars": equalizer(playing: properties["playing"] == "true", in: rect, unixTime: unixTime, on: cr)
        default:
            if reported.insert(name).inserted { Log.info("no drawing for custom view '\(name)'; drawing a placeholder tile") }
            Shapes.roundedRect(rect, radius: min(rect.width, rect.height) * 0.15, on: cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.15)
            cairo_fill(cr)
        }
    }

    /// The cover: its `art_url` image when it is a loadable file, else a tile in a colour
    /// derived from the URL (or `coverWithoutArt` when there is none) with a note on it.
    static func coverArt(_ properties: [String: String], in rect: Rect, images: ImageCache, on cr: OpaquePointer) {
        let radius = min(rect.width, rect.height) * 0.18
        cairo_save(cr)
        defer { cairo_restore(cr) }
        Shapes.roundedRect(rect, radius: radius, on: cr)
        cairo_clip(cr)
        let url = properties["art_url"]
        if let url, url.hasPrefix("file://"),
           images.load(url, pixels: Int((max(rect.width, rect.height) * images.scale).rounded(.up))) != nil {
            images.draw(url, tint: nil, in: rect, on: cr)
            return
        }
        let fill = url.map(colour(for:)) ?? coverWithoutArt
        cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, 1)
        cairo_paint(cr)
        note(in: rect, on: cr)
    }

    /// A saturated hue picked by the URL's FNV-1a hash: the same art, the same colour.
    static func colour(for url: String) -> RGBA {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hue = Double(hash % 360) / 60
        let x = 1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1)
        let (r, g, b): (Double, Double, Double) = switch Int(hue) {
        case 0: (1, x, 0)
        case 1: (x, 1, 0)
        case 2: (0, 1, x)
        case 3: (0, x, 1)
        case 4: (x, 0, 1)
        default: (1, 0, x)
        }
        return RGBA(red: 0.15 + 0.75 * r, green: 0.15 + 0.75 * g, blue: 0.15 + 0.75 * b)
    }

    /// A quaver, small in the tile's lower middle so the tile's colour dominates.
    private static func note(in rect: Rect, on cr: OpaquePointer) {
        let unit = min(rect.width, rect.height) / 10
        let headX = rect.midX - unit, headY = rect.midY + 1.5 * unit
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_new_path(cr)
        cairo_arc(cr, headX, headY, unit * 1.1, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_set_line_width(cr, max(1, unit * 0.45))
        cairo_move_to(cr, headX + unit, headY)
        cairo_line_to(cr, headX + unit, headY - 4.5 * unit)
        cairo_line_to(cr, headX + 2.6 * unit, headY - 3.6 * unit)
        cairo_stroke(cr)
    }

    /// Four green capsules, bottom-aligned; while playing their heights follow the clock.
    static func equalizer(playing: Bool, in rect: Rect, unixTime: Double, on cr: OpaquePointer) {
        let levels = [0.5, 1.0, 0.7, 0.85]
        let barWidth = rect.width / (Double(levels.count) * 1.6)
        let gap = (rect.width - barWidth * Double(levels.count)) / Double(levels.count - 1)
        cairo_set_source_rgba(cr, equalizerGreen.red, equalizerGreen.green, equalizerGreen.blue, 1)
        for (index, level) in levels.enumerated() {
            let phase = Double(index) * 1.7
            let height = playing
                ? rect.height * max(0.2, min(1, level * (0.55 + 0.45 * abs(sin(unixTime * 2.3 + phase)))))
                : min(rect.height, barWidth)
            let bar = Rect(x: rect.minX + Double(index) * (barWidth + gap), y: rect.maxY - height, width: barWidth, height: height)
            Shapes.roundedRect(bar, radius: barWidth / 2, on: cr)
            cairo_fill(cr)
        }
    }
}
