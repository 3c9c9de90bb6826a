#if canImport(Glibc)
import Glibc
#endif
import NookVersion

/// A program's command line, declared once: its `--help` is generated from it and every
/// program answers alike.
///
/// - `--help`/`-h` prints the help on stdout and exits 0; `--version` prints
///   `NookVersion.line` and exits 0 (both are added to every program).
/// - A mistake prints `program: <problem>`, the usage lines and a pointer to `--help` on
///   stderr, and exits 2.
///
/// ```swift
/// let commandLine = CommandLineInterface(
///     program: "nookd", usage: ["[--address ADDR] [--verbose]"],
///     about: "The Nook broker.",
///     options: [.value("--address", "ADDR", help: "a D-Bus address"), .flag("--verbose", help: "log debug lines")])
/// let parsed = commandLine.parseOrExit()
/// if parsed.flag("--verbose") { ... }
/// ```
public struct CommandLineInterface: Sendable {
    public let program: String
    /// The usage lines, each without `usage: program`.
    public let usage: [String]
    /// What the program does, after the usage lines.
    public let about: String
    /// The program's options, then `--help` and `--version`.
    public let options: [CommandLineOption]
    /// How many positionals it takes (most take none).
    public let positionals: ClosedRange<Int>
    /// Text after the options: files, exit status.
    public let epilogue: String

    public static let help = CommandLineOption.flag("--help", short: "-h", help: "show this text and exit")
    public static let version = CommandLineOption.flag("--version", help: "print the version and exit")

    public init(program: String, usage: [String], about: String, options: [CommandLineOption],
                positionals: ClosedRange<Int> = 0...0, epilogue: String = "") {
        self.program = program
        self.usage = usage
        self.about = about
        self.options = options + [Self.help, Self.version]
        self.positionals = positionals
        self.epilogue = epilogue
    }

    /// What a command line asks for.
    public enum Outcome: Sendable {
        case run(ParsedCommandLine)
        case help
        case version
        case mistake(String)
    }

    public func parse(_ arguments: [String]) -> Outcome {
        let split: OptionSplitter.Split
        do {
            split = try OptionSplitter.split(arguments, options: options)
        } catch {
            // `--help` anywhere wins over a mistake elsewhere, as `--help` promises.
            if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
            return .mistake(error.message)
        }
        if split.values["--help"] != nil { return .help }
        if split.values["--version"] != nil { return .version }
        if split.positionals.count > positionals.upperBound {
            return .mistake("unexpected argument '\(split.positionals[positionals.upperBound])'")
        }
        if split.positionals.count < positionals.lowerBound { return .mistake("missing argument") }
        return .run(ParsedCommandLine(interface: self, values: split.values, positionals: split.positionals))
    }

    /// Parses the process's arguments; answers `--help`, `--version` and mistakes, exiting.
    public func parseOrExit(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> ParsedCommandLine {
        switch parse(arguments) {
        case .run(let parsed): return parsed
        case .help:
            write(1, helpText)
            exit(0)
        case .version:
            write(1, NookVersion.line(program: program) + "\n")
            exit(0)
        case .mistake(let message):
            fail(message)
        }
    }

    /// A bad command line: the problem and the usage on stderr, exit status 2.
    public func fail(_ message: String) -> Never {
        write(2, mistakeText(message))
        exit(2)
    }

    /// `program: problem`, the usage lines, and where the rest is.
    public func mistakeText(_ message: String) -> String {
        "\(program): \(message)\n\(usageLines)Try '\(program) --help' for more.\n"
    }

    /// `usage: program ...` and `       program ...`.
    public var usageLines: String {
        usage.enumerated().map { index, line in
            (index == 0 ? "usage: " : "       ") + program + (line.isEmpty ? "" : " " + line) + "\n"
        }.joined()
    }

    /// The whole `--help`: usage, what it does, the options in two columns, the epilogue.
    public var helpText: String {
        let width = min(28, options.map(\.synopsis.count).max() ?? 0)
        var text = usageLines + "\n" + about + "\n\n"
        for option in options {
            let left = option.synopsis
            if left.count > width {
                text += "  \(left)\n  \(String(repeating: " ", count: width))  \(option.help)\n"
            } else {
                text += "  \(left)\(String(repeating: " ", count: width - left.count))  \(option.help)\n"
            }
        }
        if !epilogue.isEmpty { text += "\n" + epilogue + "\n" }
        return text
    }

    private func write(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
