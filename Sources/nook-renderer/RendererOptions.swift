import NookCore

/// The command line: `nook-renderer [--address A] [--notch WxH] [--slow-motion F] [--verbose]`.
struct RendererOptions: Sendable {
    /// A D-Bus address; nil for the session bus.
    var address: String?
    /// The notch declared to the broker (the screen has none on Linux desktops).
    var notch = Size(width: 200, height: 32)
    /// Curves take this many times longer (demos, screenshot tests).
    var slowMotion = 1.0
    var verbose = false
    /// `--measure-text`: print the broker-vs-Pango text metrics table and exit.
    var measureText = false
    /// `--version`: print the version and exit.
    var printVersion = false

    static let usage = """
        usage: nook-renderer [--address ADDRESS] [--notch WxH] [--slow-motion FACTOR] [--verbose]
               nook-renderer --measure-text | --help | --version
          --address ADDRESS      D-Bus address of the bus nookd is on (default: the session bus)
          --notch WxH            notch size in points when the screen has none (default 200x32)
          --slow-motion FACTOR   play every curve FACTOR times slower (default 1)
          --verbose              log each plan and each frame's shared-element rects to stderr
          --measure-text         compare the broker's text metrics with Pango's and exit
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
                let parts = text.split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                    throw UsageError(description: "--notch: expected WxH in points (e.g. 200x32), got '\(text)'")
                }
                notch = Size(width: parts[0], height: parts[1])
            case "--slow-motion":
                let text = try value(argument)
                guard let factor = Double(text), factor > 0, factor.isFinite else {
                    throw UsageError(description: "--slow-motion: expected a positive number, got '\(text)'")
                }
                slowMotion = factor
            case "--verbose": verbose = true
            case "--measure-text": measureText = true
            case "--version": printVersion = true
            case "--help", "-h": throw UsageError(description: Self.usage)
            default: throw UsageError(description: "unknown option '\(argument)'\n\(Self.usage)")
            }
            index += 1
        }
    }
}
