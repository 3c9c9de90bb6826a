import CGtk
import Glibc
import NookCore
import NookRenderModel

/// `--measure-text [FILE]`: Pango's width for each sample string, against the broker's, and
/// Pango's per-character widths summed (what `resize` elements re-wrap with, `PangoTextMeasurer`).
///
/// FILE (or `-`, standard input) holds one sample a line, tab-separated:
/// `size  weight  tnum  broker_width  text` (weight a CSS number or an SDK name, tnum `0` or `1`,
/// broker_width in points or `-`); `#` starts a comment line. The tests write it with the
/// broker's `FontTextMeasurer`. Without FILE, the examples' strings, against the built-in
/// estimate (`TextMetrics`). Prints a Markdown table and the worst difference; docs/renderer.md
/// keeps one run of it.
enum MeasureTextCommand {
    struct Sample {
        let text: String
        let size: Double
        /// CSS weight, or the SDK's name.
        let weight: String
        let monospacedDigits: Bool
        /// The broker's width; nil: the estimate's.
        var brokerWidth: Double?
        var origin = ""
    }

    static let examples: [Sample] = [
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

    /// Reads samples from `path` (`-`: standard input); nil with a message when it cannot.
    static func samples(at path: String) -> Result<[Sample], Failure> {
        let text: String
        if path == "-" {
            var lines: [String] = []
            while let line = readLine(strippingNewline: true) { lines.append(line) }
            text = lines.joined(separator: "\n")
        } else {
            guard let file = fopen(path, "r") else { return .failure(Failure("--measure-text: cannot read \(path)")) }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = fread(&chunk, 1, chunk.count, file)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            text = String(decoding: bytes, as: UTF8.self)
        }
        var samples: [Sample] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, let size = Double(fields[0]), size.isFinite, size > 0, size <= 1000,
                  fields[2] == "0" || fields[2] == "1" else {
                return .failure(Failure("--measure-text: \(path) line \(number + 1): expected size (0...1000), weight, tnum (0 or 1), broker width, text"))
            }
            let broker = fields[3] == "-" ? nil : Double(fields[3]).flatMap { $0.isFinite ? $0 : nil }
            samples.append(Sample(text: String(fields[4]), size: size, weight: String(fields[1]),
                                  monospacedDigits: fields[2] == "1", brokerWidth: broker))
        }
        return .success(samples)
    }

    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The estimate's width of one line (what the broker lays out with no fonts).
    static func estimatedWidth(_ sample: Sample) -> Double {
        let font = TextFont(size: sample.size, weight: TextFont.cssWeight(sample.weight), monospacedDigits: sample.monospacedDigits)
        return EstimatedTextMeasurer().measure(sample.text, in: font).width
    }

    /// Prints the table; returns the exit status.
    static func run(file: String?, family: String) -> Int32 {
        // The locale GTK sets at start: Pango picks fallback fonts for its language.
        setlocale(LC_ALL, "")
        var samples = examples
        if let file {
            switch Self.samples(at: file) {
            case .success(let read): samples = read
            case .failure(let failure):
                Log.raw(failure.message + "\n")
                return 2
            }
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        let painter = TextPainter(family: family)
        print("Font: '\(family)' resolves to \(resolvedFamily(family, on: cr)); Pango \(String(cString: pango_version_string()))")
        print("Broker widths: \(file == nil ? "the built-in estimate (TextMetrics)" : "from \(file!)")")
        print("")
        print("| string | where | size, weight | broker width | Pango width | Pango, per character | difference |")
        print("|---|---|---|---|---|---|---|")
        let perCharacter = PangoTextMeasurer(family: family)
        var worst = (difference: 0.0, text: "")
        var total = 0.0
        for sample in samples {
            let broker = sample.brokerWidth ?? estimatedWidth(sample)
            let style = TextStyle(size: sample.size, weight: TextFont.cssWeight(sample.weight), monospacedDigits: sample.monospacedDigits)
            let pango = painter.measure(sample.text, style: style, on: cr).width
            // What `resize` elements re-wrap with in flight: the same widths, scalar by scalar.
            let summed = perCharacter.measure(
                sample.text, in: TextFont(size: sample.size, weight: style.weight, monospacedDigits: sample.monospacedDigits)).width
            let difference = pango - broker
            total += abs(difference)
            if abs(difference) >= abs(worst.difference) { worst = (difference, sample.text) }
            print("| \(sample.text) | \(sample.origin) | \(PlanSummary.format(sample.size)) \(sample.weight)\(sample.monospacedDigits ? " tnum" : "") "
                  + "| \(format(broker)) | \(format(pango)) | \(format(summed)) | \(signed(difference)) |")
        }
        print("")
        print("worst difference \(signed(worst.difference)) px (\(worst.text)), mean \(format(samples.isEmpty ? 0 : total / Double(samples.count))) px, over \(samples.count) strings")
        fflush(nil)
        return 0
    }

    /// The family fontconfig gives Pango for `family`.
    static func resolvedFamily(_ family: String, on cr: OpaquePointer) -> String {
        let probe = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(probe)) }
        let description = pango_font_description_from_string(family)
        defer { pango_font_description_free(description) }
        guard let font = pango_font_map_load_font(pango_cairo_font_map_get_default(), pango_layout_get_context(probe), description),
              let described = pango_font_describe(font) else { return "?" }
        defer { pango_font_description_free(described) }
        return String(cString: pango_font_description_get_family(described))
    }

    static func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        let text = String(Int(abs(hundredths)) / 100) + "." + String(format2(Int(abs(hundredths)) % 100))
        return (hundredths < 0 ? "-" : "") + text
    }

    private static func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + format(value)
    }
}
