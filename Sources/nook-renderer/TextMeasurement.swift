import CGtk
import NookCore
import NookRenderModel

/// `--measure-text`: how far the broker's text model (NookCore's `TextMetrics`, which the
/// layout sizes text with) and Pango (what this renderer draws with) disagree on the
/// examples' strings. Prints a Markdown table; docs/renderer.md keeps one run of it.
enum TextMeasurement {
    struct Sample {
        let text: String
        let size: Double
        /// The broker's weight name, and the CSS weight Pango gets.
        let weight: String
        let monospacedDigits: Bool
        let origin: String
    }

    static let samples: [Sample] = [
        Sample(text: "Morning Tide", size: 13, weight: "semibold", monospacedDigits: false, origin: "music peek title"),
        Sample(text: "Paper Lanterns", size: 15, weight: "semibold", monospacedDigits: false, origin: "music expanded title"),
        Sample(text: "Northbound", size: 17, weight: "semibold", monospacedDigits: false, origin: "music home title"),
        Sample(text: "The Harbour Lights", size: 11, weight: "regular", monospacedDigits: false, origin: "music peek artist"),
        Sample(text: "Ada & the Modems", size: 15, weight: "regular", monospacedDigits: false, origin: "music home artist"),
        Sample(text: "Simulator", size: 11, weight: "regular", monospacedDigits: false, origin: "music home source"),
        Sample(text: "Nothing playing", size: 13, weight: "regular", monospacedDigits: false, origin: "music home, idle"),
        Sample(text: "04:59", size: 13, weight: "semibold", monospacedDigits: true, origin: "timer countdown, pill"),
        Sample(text: "1:04:59", size: 28, weight: "semibold", monospacedDigits: true, origin: "timer countdown, home"),
        Sample(text: "Timer 1", size: 13, weight: "regular", monospacedDigits: false, origin: "timer name"),
        Sample(text: "Timers", size: 17, weight: "bold", monospacedDigits: false, origin: "timer home header"),
        Sample(text: "No timer running", size: 13, weight: "regular", monospacedDigits: false, origin: "timer home, idle"),
        Sample(text: "Steeping", size: 17, weight: "bold", monospacedDigits: false, origin: "guide home header"),
        Sample(text: "2 pots", size: 13, weight: "regular", monospacedDigits: false, origin: "guide widget"),
    ]

    static func cssWeight(_ name: String) -> Int {
        switch name {
        case "semibold": 600
        case "bold": 700
        default: 400
        }
    }

    /// The broker's size for one line: the sum of its per-scalar advances, and `size x 1.2`.
    static func brokerSize(_ sample: Sample) -> Size {
        let weight = TextMetrics.weightFactor(sample.weight)
        let advance = sample.text.unicodeScalars.reduce(0.0) {
            $0 + TextMetrics.advanceFactor(of: $1, weight: weight, monospacedDigits: sample.monospacedDigits)
        }
        return Size(width: advance * sample.size, height: sample.size * TextMetrics.lineHeightFactor)
    }

    static func run() {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        let painter = TextPainter()
        let fontMap = pango_cairo_font_map_get_default()
        let probe = pango_cairo_create_layout(cr)!
        let description = pango_font_description_from_string(TextPainter.defaultFamily)
        let font = pango_font_map_load_font(fontMap, pango_layout_get_context(probe), description)
        let resolved = font.map { pango_font_describe($0) }.flatMap { $0 }.map { String(cString: pango_font_description_get_family($0)) } ?? "?"
        pango_font_description_free(description)
        g_object_unref(UnsafeMutableRawPointer(probe))
        print("Font: '\(TextPainter.defaultFamily)' resolves to \(resolved); Pango \(String(cString: pango_version_string()))")
        print("")
        print("| string | where | size, weight | broker w x h | Pango w x h | width diff | height diff |")
        print("|---|---|---|---|---|---|---|")
        var ratios: [Double] = []
        for sample in samples {
            let broker = brokerSize(sample)
            let style = TextStyle(size: sample.size, weight: cssWeight(sample.weight), monospacedDigits: sample.monospacedDigits)
            let pango = painter.measure(sample.text, style: style, on: cr)
            let widthDiff = (pango.width - broker.width) / broker.width * 100
            let heightDiff = (pango.height - broker.height) / broker.height * 100
            ratios.append(pango.width / broker.width)
            print("| \(sample.text) | \(sample.origin) | \(Int(sample.size)) \(sample.weight)\(sample.monospacedDigits ? " tnum" : "") "
                  + "| \(PlanSummary.format(broker.width)) x \(PlanSummary.format(broker.height)) "
                  + "| \(Int(pango.width)) x \(Int(pango.height)) | \(signed(widthDiff))% | \(signed(heightDiff))% |")
        }
        let mean = ratios.reduce(0, +) / Double(ratios.count)
        print("")
        print("Pango width / broker width: mean \(PlanSummary.format(mean * 100))%, min \(PlanSummary.format((ratios.min() ?? 0) * 100))%, max \(PlanSummary.format((ratios.max() ?? 0) * 100))%")
        fflush(nil)
    }

    private static func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + PlanSummary.format(value)
    }
}
