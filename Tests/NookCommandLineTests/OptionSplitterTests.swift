import NookCommandLine
import Testing

/// The splitter every program shares: each kind of mistake is named, values are taken the same
/// way everywhere.
struct OptionSplitterTests {
    static let options: [CommandLineOption] = [
        .value("--address", "ADDR", help: ""),
        .flag("--verbose", short: "-v", help: ""),
        .optionalValue("--measure-text", "FILE", help: ""),
    ]

    @Test func valuesFlagsAndPositionals() throws {
        let split = try OptionSplitter.split(["--address", "unix:path=/x", "-v", "file", "--measure-text", "-", "--", "--verbose"], options: Self.options)
        #expect(split.values == ["--address": "unix:path=/x", "--verbose": "", "--measure-text": "-"])
        #expect(split.positionals == ["file", "--verbose"])
    }

    @Test func inlineValuesAndNegativeNumbersAsPositionals() throws {
        let split = try OptionSplitter.split(["--address=a=b", "-5", "-0.5", "--measure-text"], options: Self.options)
        #expect(split.values == ["--address": "a=b", "--measure-text": ""])
        #expect(split.positionals == ["-5", "-0.5"])
    }

    @Test(arguments: [
        (["--frob"], OptionSplitter.Problem.unknown("--frob")),
        (["-x"], .unknown("-x")),
        (["--frob=1"], .unknown("--frob")),
        (["--verbose", "-v"], .repeated("-v")),
        (["--address"], .missingValue("--address", placeholder: "ADDR")),
        (["--address", "--verbose"], .missingValue("--address", placeholder: "ADDR")),
        (["--verbose=yes"], .unexpectedValue("--verbose")),
    ])
    func mistakesAreNamed(words: [String], problem: OptionSplitter.Problem) {
        #expect(throws: problem) { try OptionSplitter.split(words, options: Self.options) }
    }

    @Test func withoutShortOptionsDashWordsArePositionals() throws {
        let split = try OptionSplitter.split(["-x", "--verbose"], options: Self.options, shortOptions: false)
        #expect(split.positionals == ["-x"])
    }
}

/// A declared interface: help and version win, positionals are counted, help is generated.
struct CommandLineInterfaceTests {
    static let interface = CommandLineInterface(
        program: "demo", usage: ["[--count N]"], about: "A demo.",
        options: [.value("--count", "N", help: "how many")])

    @Test func helpAndVersionAndMistakes() {
        guard case .help = Self.interface.parse(["--count", "3", "-h"]) else { Issue.record("-h is help"); return }
        guard case .help = Self.interface.parse(["--bogus", "--help"]) else { Issue.record("--help wins over a mistake"); return }
        guard case .version = Self.interface.parse(["--version"]) else { Issue.record("--version"); return }
        guard case .mistake(let extra) = Self.interface.parse(["stray"]) else { Issue.record("a positional"); return }
        #expect(extra == "unexpected argument 'stray'")
        guard case .mistake(let unknown) = Self.interface.parse(["--bogus"]) else { Issue.record("unknown"); return }
        #expect(unknown == "unknown option '--bogus'")
        guard case .run(let parsed) = Self.interface.parse(["--count", "3"]) else { Issue.record("a good line"); return }
        #expect(parsed.value("--count") == "3" && !parsed.flag("--help"))
    }

    @Test func helpTextListsEveryOptionAndMistakeTextPointsToHelp() {
        let help = Self.interface.helpText
        #expect(help.hasPrefix("usage: demo [--count N]\n\nA demo.\n"))
        for name in ["--count N", "-h, --help", "--version"] { #expect(help.contains(name), "\(help)") }
        #expect(Self.interface.mistakeText("unknown option '--x'") == "demo: unknown option '--x'\nusage: demo [--count N]\nTry 'demo --help' for more.\n")
    }
}
