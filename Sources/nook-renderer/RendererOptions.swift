import NookCommandLine
import NookCore
import NookRenderModel

/// The command line: `nook-renderer [--address A] [--notch auto|WxH] [--slow-motion F] [--verbose] [--log-settled]`.
struct RendererOptions: Sendable {
    /// A D-Bus address; nil for the session bus.
    var address: String?
    /// `--notch`: overrides `renderer.json`'s `notch` (nil: the file's, whose default is `auto`).
    var notch: RendererConfig.Notch?
    /// Curves take this many times longer (demos, screenshot tests).
    var slowMotion = 1.0
    var verbose = false
    /// `--log-settled`: only the `settled` line of each transition (what `make bench` reads).
    var logSettled = false
    /// `--measure-text [FILE]`: print the broker-vs-Pango text width table and exit.
    var measureText = false
    /// The samples file `--measure-text` reads (`-`: standard input); nil: the examples.
    var measureTextFile: String?
    /// `--font FAMILY`: the family `--measure-text` measures in (default `Sans`).
    var font: String?
    /// `--check-symbols [DIR]`: draw every symbol of `SymbolNames`, say where each came from
    /// (and write each as `DIR/<name>.png`), exit.
    var checkSymbols = false
    var checkSymbolsDirectory: String?

    static let commandLine = CommandLineInterface(
        program: "nook-renderer",
        usage: ["[--address ADDRESS] [--notch auto|WxH] [--slow-motion FACTOR] [--verbose] [--log-settled]",
                "--measure-text [FILE] [--font FAMILY]", "--check-symbols [DIR]", "--help | --version"],
        about: "Draws the nook from the plans nookd sends (GTK3, Cairo, Pango). See docs/renderer.md.",
        options: [
            .value("--address", "ADDRESS", help: "D-Bus address of the bus nookd is on (default: the session bus)"),
            .value("--notch", "auto|WxH", help: "notch in points declared to nookd; overrides renderer.json (default auto: none)"),
            .value("--slow-motion", "FACTOR", help: "play every curve FACTOR times slower, 0.01...1000 (default 1)"),
            .flag("--verbose", help: "log each plan and each frame's shared-element rects to stderr"),
            .flag("--log-settled", help: "log one line when a transition has settled: its frames and what painting them cost (--verbose logs it too)"),
            .optionalValue("--measure-text", "FILE", help: "compare the broker's text widths (FILE, '-' for stdin; default the examples against the built-in estimate) with Pango's and exit"),
            .value("--font", "FAMILY", help: "the font family --measure-text measures in (default Sans)"),
            .optionalValue("--check-symbols", "DIR", help: "draw every SF-Symbols-style name the nook maps, print where each icon came from (and write DIR/<name>.png), and exit (needs a display)"),
        ])

    /// Reads the process's command line; `--help`, `--version` and mistakes end the program.
    static func fromCommandLine() -> RendererOptions {
        let parsed = commandLine.parseOrExit()
        var options = RendererOptions()
        options.address = parsed.text("--address")
        if let text = parsed.value("--notch") {
            guard let notch = RendererConfig.Notch(text: text) else {
                commandLine.fail("option '--notch' needs auto or WxH in points, each 0...10000 (e.g. 200x32 or 0x0), got '\(text.prefix(200))'")
            }
            options.notch = notch
        }
        options.slowMotion = parsed.number("--slow-motion", in: 0.01...1000) ?? 1
        options.verbose = parsed.flag("--verbose")
        options.logSettled = parsed.flag("--log-settled")
        options.measureText = parsed.flag("--measure-text")
        if let file = parsed.value("--measure-text"), !file.isEmpty { options.measureTextFile = file }
        options.font = parsed.text("--font", maxLength: 128)
        options.checkSymbols = parsed.flag("--check-symbols")
        if let directory = parsed.value("--check-symbols"), !directory.isEmpty { options.checkSymbolsDirectory = directory }
        return options
    }
}
