import NookBus
import CGtk
import NookCore
import NookRenderModel
import Synchronization

/// Text measured by Pango, set as `TextPainter` draws it: what `resize` elements re-wrap their
/// text with in flight (the presenter's `textMeasurement`), so the text fits the rects the
/// renderer lays out for it, as the broker's measurement fits the rects it laid out.
///
/// Each scalar's advance comes from `pango_glyph_item_get_logical_widths` (a cluster's width
/// on its first character); the last `cacheCapacity` strings stay cached. One lock guards the
/// Cairo context and the cache.
final class PangoTextMeasurer: TextMeasurer {
    let family: String
    let identity: String
    private let state: Locked<State>

    private struct Key: Hashable {
        var text: String
        var font: TextFont
    }

    private final class State {
        let surface: OpaquePointer
        let cr: OpaquePointer
        var cache: BoundedCache<Key, MeasuredText>

        init(cacheCapacity: Int) {
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
            cr = cairo_create(surface)
            cache = BoundedCache(capacity: cacheCapacity)
        }

        deinit {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
    }

    init(family: String, cacheCapacity: Int = 2048) {
        self.family = family
        identity = "pango:" + family
        state = Locked(State(cacheCapacity: cacheCapacity))
    }

    func measure(_ text: String, in font: TextFont) -> MeasuredText {
        let family = family
        return state.withLock { state in
            state.cache.value(for: Key(text: text, font: font)) { Self.measure(text, font, family: family, on: state.cr) }
        }
    }

    private static func measure(_ text: String, _ font: TextFont, family: String, on cr: OpaquePointer) -> MeasuredText {
        let style = TextStyle(size: font.size, weight: font.weight, monospacedDigits: font.monospacedDigits)
        let layout = TextPainter.layout(text, style: style, family: family, on: cr)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        // Byte offset of each scalar, to place Pango's per-character widths.
        var scalarAtByte: [Int: Int] = [:]
        var byte = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            scalarAtByte[byte] = index
            byte += String(scalar).utf8.count
        }
        var advances = [Double](repeating: 0, count: text.unicodeScalars.count)
        var lineHeight = 0.0
        let layoutText = pango_layout_get_text(layout)
        var line = pango_layout_get_lines_readonly(layout)
        while let node = line {
            let layoutLine = node.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self)
            if lineHeight == 0 {
                var logical = PangoRectangle()
                pango_layout_line_get_extents(layoutLine, nil, &logical)
                lineHeight = Double(logical.height) / Double(PANGO_SCALE)
            }
            var run = layoutLine.pointee.runs
            while let runNode = run {
                let item = runNode.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                let count = Int(item.pointee.item.pointee.num_chars)
                var widths = [Int32](repeating: 0, count: count)
                pango_glyph_item_get_logical_widths(item, layoutText, &widths)
                if let first = scalarAtByte[Int(item.pointee.item.pointee.offset)] {
                    for offset in 0..<count where first + offset < advances.count {
                        advances[first + offset] = Double(widths[offset]) / Double(PANGO_SCALE)
                    }
                }
                run = runNode.pointee.next
            }
            line = node.pointee.next
        }
        return MeasuredText(advances: advances, lineHeight: lineHeight)
    }
}
