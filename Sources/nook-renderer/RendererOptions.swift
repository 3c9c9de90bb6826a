import NookCore
import NookRenderModel

/// The command line: `nook-renderer [--address A] [--notch auto|WxH] [--slow-motion F] [--verbose]`.
struct RendererOptions: Sendable {
    /// A D-Bus address; nil for the session bus.
    var address: String?
    /// `--notch`: overrides `renderer.json`'s `notch` (nil: the file's, whose default is `auto`).
    var notch: RendererConfig.Notch?
    /// Curves take this many times longer (demos, screenshot tests).
    var slowMotion = 1.0
    var verbose = false
    /// `--measure-text [FILE]`: print the broker-vs-Pango text width table and exit.
    var measureText = false
    /// The samples file `--measure-text` reads (`-`: standard input); nil: the examples.
    var measureTextFile: String?
    /// `--font FAMILY`: the family `--measure-text` measures in (default the config's `font`).
    var font: String?
    /// `--version`: print the version and exit.
    var printVersion = false

    static let usage = """
        usage: nook-renderer [--address ADDRESS] [--notch auto|WxH] [--slow-motion FACTOR] [--verbose]
               nook-renderer --measure-text [FILE] [--font FAMILY] | --help | --version
          --address ADDRESS      D-Bus address of the bus nookd is on (default: the session bus)
          --notch auto|WxH       notch in points declared to nookd; overrides renderer.json (default auto: none)
          --slow-motion FACTOR   play every curve FACTOR times slower (default 1)
          --verbose              log each plan and each frame's shared-element rects to stderr
          --measure-text [FILE]  compare the broker's text widths (FILE, '-' for stdin; default the
                                 examples against the built-in estimate) with Pango's and exit
          --font FAMILY          the font family --measure-text measures in (default renderer.json's)
          --version              print the version and exit
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String]) throws(UsageError) {
        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--address": address = try value(argument)
            case "--notch":
                let text = try value(argument)
                guard let parsed = RendererConfig.Notch(text: text) else {
                    throw UsageError(description: "--notch: expected auto or WxH in points, each 0...10000 (e.g. 200x32 or 0x0), got '\(text)'")
                }
                notch = parsed
            case "--slow-motion":
                let text = try value(argument)
                guard let factor = Double(text), factor > 0, factor.isFinite else {
                    throw UsageError(description: "--slow-motion: expected a positive number, got '\(text)'")
                }
                slowMotion = factor
            case "--verbose": verbose = true
            case "--measure-text":
                measureText = true
                if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
                    index += 1
                    measureTextFile = arguments[index]
                }
            case "--font":
                let family = try value(argument)
                guard (1...128).contains(family.count) else {
                    throw UsageError(description: "--font: expected a font family name (1...128 characters), got '\(family)'")
                }
                font = family
            case "--version": printVersion = true
            case "--help", "-h": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown option '\(argument)'\n\(Self.usage)")
            }
            index += 1
        }
    }
}
