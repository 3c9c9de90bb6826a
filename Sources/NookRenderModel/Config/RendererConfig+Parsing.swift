import NookCore

/// Why a `renderer.json` was refused: one line per problem, each naming its key.
public struct RendererConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [String]
    public init(problems: [String]) { self.problems = problems }
    public var description: String { problems.joined(separator: "; ") }
}

extension RendererConfig {
    /// The keys `colors` may hold.
    static let colorKeys = ["chrome", "text"]

    /// Reads a `renderer.json` document. Missing keys keep their defaults; every bad value and
    /// unknown key is reported by name, and then nothing of the file applies.
    public static func parse(_ text: String, fileName: String = "renderer.json") throws(RendererConfigError) -> RendererConfig {
        let document: JSONValue
        do { document = try JSONValue.parse(text, maxDepth: 8) } catch {
            throw RendererConfigError(problems: ["\(fileName): \(error)"])
        }
        guard case .object(let object) = document else {
            throw RendererConfigError(problems: ["\(fileName): expected a JSON object, got \(document.kindName)"])
        }
        var reader = Reader(fileName: fileName)
        var config = RendererConfig()
        for key in object.keys.sorted() {
            let value = object[key]!
            switch key {
            case "layer":
                if let layer = reader.string(key, value).flatMap(Layer.init(rawValue:)) { config.layer = layer } else {
                    reader.fail(key, "must be \"auto\", \"overlay\" or \"top\"", value)
                }
            case "output":
                guard let name = reader.string(key, value), !name.isEmpty, name.count <= 128 else {
                    reader.fail(key, "must be \"primary\", \"focused\" or a connector name such as \"DP-1\"", value)
                    continue
                }
                config.output = name == "primary" ? .primary : name == "focused" ? .focused : .named(name)
            case "margin_top":
                if let points = reader.integer(value, in: 0...1000) { config.marginTop = points } else {
                    reader.fail(key, "must be a whole number of points 0...1000", value)
                }
            case "exclusive_zone":
                if case .string("auto") = value { config.exclusiveZone = nil } else if let points = reader.integer(value, in: -1...1000) {
                    config.exclusiveZone = points
                } else {
                    reader.fail(key, "must be \"auto\" (below panels, reserving the pill's height), -1 (over panels), 0 (below panels) or 1...1000 (points to reserve)", value)
                }
            case "notch":
                if let notch = reader.string(key, value).flatMap(Notch.init(text:)) { config.notch = notch } else {
                    reader.fail(key, "must be \"auto\" or \"WxH\" in points (each 0...10000, e.g. \"200x32\" or \"0x0\")", value)
                }
            case "font":
                // Retired: text is drawn in the family the broker measured it in (the theme's
                // `font.family`), so this key could never show. Taken, so older files still
                // apply, and said to do nothing.
                config.notes.append(Self.retiredFontNote(fileName: fileName))
            case "colors":
                guard case .object(let colors) = value else {
                    reader.fail(key, "must be an object with \"chrome\" and/or \"text\"", value)
                    continue
                }
                for colorKey in colors.keys.sorted() {
                    let path = "colors.\(colorKey)"
                    guard colorKeys.contains(colorKey) else { reader.unknown(path); continue }
                    guard let colour = reader.string(path, colors[colorKey]!).flatMap(RGBA.init(hex:)) else {
                        reader.fail(path, "must be a colour \"#RRGGBB\" or \"#RRGGBBAA\"", colors[colorKey]!)
                        continue
                    }
                    if colorKey == "chrome" { config.chromeColor = colour } else { config.textColor = colour }
                }
            case "reduce_motion":
                switch value {
                case .bool(let on): config.reduceMotion = .fixed(on)
                case .string("auto"): config.reduceMotion = .auto
                default: reader.fail(key, "must be \"auto\", true or false", value)
                }
            default:
                reader.unknown(key)
            }
        }
        guard reader.problems.isEmpty else { throw RendererConfigError(problems: reader.problems) }
        return config
    }

    /// What the log says about a `font` key.
    public static func retiredFontNote(fileName: String = "renderer.json") -> String {
        "\(fileName): key 'font' has no effect and is ignored: the nook's text is drawn in the theme's font.family "
            + "(the family nookd measures it in); set it in theme.json or with `nookctl theme set font.family NAME`"
    }

    /// Collects problems, each naming its key and quoting the value it got.
    private struct Reader {
        let fileName: String
        var problems: [String] = []

        mutating func fail(_ key: String, _ requirement: String, _ value: JSONValue) {
            problems.append("\(fileName): key '\(key)' \(requirement), got \(Self.quote(value))")
        }

        mutating func unknown(_ key: String) {
            problems.append("\(fileName): unknown key '\(key)'")
        }

        func string(_ key: String, _ value: JSONValue) -> String? {
            if case .string(let text) = value { return text }
            return nil
        }

        func integer(_ value: JSONValue, in range: ClosedRange<Int>) -> Int? {
            guard case .number(let number) = value, number.rounded() == number,
                  number >= Double(range.lowerBound), number <= Double(range.upperBound) else { return nil }
            return Int(number)
        }

        /// The value as the file wrote it, for short scalars; else its kind.
        static func quote(_ value: JSONValue) -> String {
            switch value {
            case .string(let text): "\"\(text.count > 40 ? String(text.prefix(40)) + "..." : text)\""
            case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
            case .bool(let flag): String(flag)
            case .null: "null"
            case .array, .object: value.kindName
            }
        }
    }
}
