import NookBus
import Testing
@testable import NookCtlKit

/// The parser as a table of named cases: what each command line becomes, and the exact text
/// of each refusal.
@Suite struct ArgumentParserTests {
    struct Valid: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let command: Command
        var address: String? = nil
        var testDescription: String { name }
    }

    static let valid: [Valid] = [
        Valid(name: "status", arguments: ["status"], command: .status),
        Valid(name: "activities", arguments: ["activities"], command: .activities),
        Valid(name: "modules", arguments: ["modules"], command: .modules),
        Valid(name: "show", arguments: ["show"], command: .show),
        Valid(name: "hide", arguments: ["hide"], command: .hide),
        Valid(name: "open with the broker's default", arguments: ["open"], command: .open(.automatic, via: nil)),
        Valid(name: "open onto an activity", arguments: ["open", "--activity", "music/song"],
              command: .open(.activity(module: "music", activity: "song"), via: nil)),
        Valid(name: "open onto a home by hover", arguments: ["open", "--home", "music", "--via", "hover"],
              command: .open(.home(module: "music"), via: "hover")),
        Valid(name: "open onto the board, --opt=value", arguments: ["open", "--board", "--via=claim"], command: .open(.board, via: "claim")),
        Valid(name: "close", arguments: ["close"], command: .close),
        Valid(name: "peek splits at the first slash", arguments: ["peek", "timer/tea.2/x"], command: .peek(module: "timer", activity: "tea.2/x")),
        Valid(name: "unpeek", arguments: ["unpeek"], command: .unpeek),
        Valid(name: "companion opens", arguments: ["companion", "music"], command: .companion(module: "music")),
        Valid(name: "companion closes", arguments: ["companion", "--close"], command: .companion(module: nil)),
        Valid(name: "display with a notch", arguments: ["display", "--width", "1512", "--height", "982", "--notch", "200x32"],
              command: .display(DisplayArguments(width: 1512, height: 982, notchWidth: 200, notchHeight: 32))),
        Valid(name: "display without a notch", arguments: ["display", "--height", "1080", "--width", "1920"],
              command: .display(DisplayArguments(width: 1920, height: 1080))),
        Valid(name: "preview open by hover", arguments: ["preview", "open", "--home", "music", "--via", "hover"],
              command: .preview(action: "open", options: ["onto": .string("home"), "module": .string("music"), "via": .string("hover")], json: false)),
        Valid(name: "preview peek as JSON", arguments: ["preview", "peek", "music/song", "--json"],
              command: .preview(action: "peek", options: ["module": .string("music"), "activity": .string("song")], json: true)),
        Valid(name: "preview end_peek", arguments: ["preview", "end_peek"], command: .preview(action: "end_peek", options: [:], json: false)),
        Valid(name: "watch with defaults", arguments: ["watch"], command: .watch(json: false, display: .defaultRenderer, count: nil)),
        Valid(name: "watch as JSON, three plans, own display", arguments: ["watch", "--json", "--count", "3", "--width", "800"],
              command: .watch(json: true, display: DisplayArguments(width: 800, height: 982, notchWidth: 200, notchHeight: 32, scale: 2, refreshRate: 60), count: 3)),
        Valid(name: "reduce motion on", arguments: ["set", "reduce-motion", "on"], command: .setReduceMotion(true)),
        Valid(name: "reduce motion off", arguments: ["set", "reduce-motion", "off"], command: .setReduceMotion(false)),
        Valid(name: "theme show", arguments: ["theme", "show"], command: .themeShow),
        Valid(name: "theme load", arguments: ["theme", "load", "my theme.json"], command: .themeLoad(path: "my theme.json")),
        Valid(name: "theme set an alias", arguments: ["theme", "set", "motion.sharedElement.peek", "{transition.peek}"],
              command: .themeSet(token: "motion.sharedElement.peek", value: .string("{transition.peek}"))),
        Valid(name: "theme set a duration", arguments: ["theme", "set", "motion.hideDip", "240ms"],
              command: .themeSet(token: "motion.hideDip", value: .string("240ms"))),
        Valid(name: "theme set a number", arguments: ["theme", "set", "geometry.pill.height", "34"],
              command: .themeSet(token: "geometry.pill.height", value: .double(34))),
        Valid(name: "theme set a negative number after --", arguments: ["theme", "set", "--", "geometry.offset", "-4"],
              command: .themeSet(token: "geometry.offset", value: .double(-4))),
        Valid(name: "theme set a spring", arguments: ["theme", "set", "transition.peek", #"{"response": 0.3, "dampingFraction": 0.9}"#],
              command: .themeSet(token: "transition.peek", value: .vardict(["response": .double(0.3), "damping_fraction": .double(0.9)]))),
        Valid(name: "theme set a Bézier", arguments: ["theme", "set", "transition.ease", "[0.25, 0.1, 0.25, 1]"],
              command: .themeSet(token: "transition.ease", value: .structure([.double(0.25), .double(0.1), .double(0.25), .double(1)]))),
        Valid(name: "animation rides the chrome", arguments: ["animation", "set", "convert", "chrome"],
              command: .animationSet(which: "convert", curve: .chrome)),
        Valid(name: "animation back to the theme", arguments: ["animation", "set", "peek", "theme"], command: .animationSet(which: "peek", curve: .theme)),
        Valid(name: "animation spring", arguments: ["animation", "set", "peek", "spring:0.3:0.9"],
              command: .animationSet(which: "peek", curve: .spring(response: 0.3, dampingFraction: 0.9))),
        Valid(name: "animation linear in ms", arguments: ["animation", "set", "convert", "linear:240ms"],
              command: .animationSet(which: "convert", curve: .linear(duration: 0.24))),
        Valid(name: "animation bezier", arguments: ["animation", "set", "convert", "bezier:0.25,0.1,0.25,1:0.3s"],
              command: .animationSet(which: "convert", curve: .bezier(points: [0.25, 0.1, 0.25, 1], duration: 0.3))),
        Valid(name: "end", arguments: ["end", "timer/tea", "--immediate"], command: .end(module: "timer", activity: "tea", dismissal: "immediate")),
        Valid(name: "record for ten seconds by default", arguments: ["record", "--svg", "demo.svg"],
              command: .record(svg: "demo.svg", limit: .seconds(10), display: .defaultRenderer)),
        Valid(name: "record a count", arguments: ["record", "--svg", "a.svg", "--count", "4"],
              command: .record(svg: "a.svg", limit: .count(4), display: .defaultRenderer)),
        Valid(name: "record seconds in ms", arguments: ["record", "--seconds", "1500ms", "--svg", "a.svg"],
              command: .record(svg: "a.svg", limit: .seconds(1.5), display: .defaultRenderer)),
        Valid(name: "--address before the verb", arguments: ["--address", "unix:path=/tmp/bus", "status"], command: .status,
              address: "unix:path=/tmp/bus"),
        Valid(name: "--address= after the verb", arguments: ["close", "--address=unix:path=/tmp/b"], command: .close, address: "unix:path=/tmp/b"),
        Valid(name: "--help alone", arguments: ["--help"], command: .help(verb: nil)),
        Valid(name: "-h on a verb with bad arguments still helps", arguments: ["open", "--nope", "-h"], command: .help(verb: "open")),
        Valid(name: "--help on a group", arguments: ["theme", "--help"], command: .help(verb: "theme")),
        Valid(name: "--help on a two-word verb", arguments: ["animation", "set", "--help"], command: .help(verb: "animation set")),
    ]

    @Test(arguments: valid) func parses(_ case_: Valid) throws {
        let invocation = try ArgumentParser.parse(case_.arguments)
        #expect(invocation.command == case_.command)
        #expect(invocation.address == case_.address)
    }

    struct Invalid: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let message: String
        let verb: String?
        var testDescription: String { name }
    }

    static let invalid: [Invalid] = [
        Invalid(name: "nothing", arguments: [], message: "missing verb", verb: nil),
        Invalid(name: "unknown verb", arguments: ["launch"], message: "unknown verb 'launch'", verb: nil),
        Invalid(name: "group without a sub-verb", arguments: ["theme"], message: "'theme' needs one of: show, load, set", verb: "theme"),
        Invalid(name: "group with an unknown sub-verb", arguments: ["theme", "reset"], message: "unknown theme command 'reset' (show, load, set)", verb: "theme"),
        Invalid(name: "set something else", arguments: ["set", "volume", "3"], message: "unknown set command 'volume' (reduce-motion)", verb: "set"),
        Invalid(name: "--address without a value", arguments: ["status", "--address"], message: "option '--address' needs a value (ADDR)", verb: nil),
        Invalid(name: "--address twice", arguments: ["--address", "a", "status", "--address=b"], message: "option '--address' given more than once", verb: nil),
        Invalid(name: "a verb that takes nothing", arguments: ["status", "now"], message: "unexpected argument 'now'", verb: "status"),
        Invalid(name: "unknown option", arguments: ["show", "--fast"], message: "unknown option '--fast' for 'show'", verb: "show"),
        Invalid(name: "open onto two things", arguments: ["open", "--home", "music", "--board"],
                message: "options --activity, --home and --board exclude each other", verb: "open"),
        Invalid(name: "open --activity without a slash", arguments: ["open", "--activity", "music"],
                message: "expected MODULE/ACTIVITY, found 'music'", verb: "open"),
        Invalid(name: "open --home with an activity", arguments: ["open", "--home", "music/song"],
                message: "expected a module id, found 'music/song'", verb: "open"),
        Invalid(name: "open by a bad via", arguments: ["open", "--via", "click"], message: "option '--via' must be claim or hover, found 'click'", verb: "open"),
        Invalid(name: "--via without a value", arguments: ["open", "--via"], message: "option '--via' needs a value (claim|hover)", verb: "open"),
        Invalid(name: "--via twice", arguments: ["open", "--via", "hover", "--via", "claim"], message: "option '--via' given more than once", verb: "open"),
        Invalid(name: "flag with a value", arguments: ["open", "--board=yes"], message: "option '--board' takes no value", verb: "open"),
        Invalid(name: "peek without M/A", arguments: ["peek"], message: "missing argument M/A", verb: "peek"),
        Invalid(name: "peek with an empty activity", arguments: ["peek", "music/"], message: "expected MODULE/ACTIVITY, found 'music/'", verb: "peek"),
        Invalid(name: "companion with nothing", arguments: ["companion"], message: "missing argument M (or --close)", verb: "companion"),
        Invalid(name: "companion with both", arguments: ["companion", "music", "--close"], message: "give a module or --close, not both", verb: "companion"),
        Invalid(name: "display without width", arguments: ["display", "--height", "900"], message: "missing option --width W", verb: "display"),
        Invalid(name: "display with a bad width", arguments: ["display", "--width", "wide", "--height", "9"],
                message: "option '--width' needs a number above 0, found 'wide'", verb: "display"),
        Invalid(name: "display with a zero height", arguments: ["display", "--width", "9", "--height", "0"],
                message: "option '--height' needs a number above 0, found '0'", verb: "display"),
        Invalid(name: "display with a bad notch", arguments: ["display", "--width", "9", "--height", "9", "--notch", "200"],
                message: "option '--notch' needs WIDTHxHEIGHT, found '200'", verb: "display"),
        Invalid(name: "preview without an action", arguments: ["preview"], message: "missing argument ACTION", verb: "preview"),
        Invalid(name: "preview of an unknown action", arguments: ["preview", "explode"],
                message: "unknown preview action 'explode' (open, close, peek, end_peek, show, hide)", verb: "preview"),
        Invalid(name: "preview peek without M/A", arguments: ["preview", "peek"], message: "missing argument M/A (preview peek needs it)", verb: "preview"),
        Invalid(name: "preview close with M/A", arguments: ["preview", "close", "music/song"],
                message: "unexpected argument 'music/song' (only 'preview peek' takes M/A)", verb: "preview"),
        Invalid(name: "preview close with a target", arguments: ["preview", "close", "--board"],
                message: "options --activity, --home, --board and --via apply to 'preview open' only", verb: "preview"),
        Invalid(name: "watch with a zero count", arguments: ["watch", "--count", "0"],
                message: "option '--count' needs a whole number above 0, found '0'", verb: "watch"),
        Invalid(name: "reduce motion maybe", arguments: ["set", "reduce-motion", "maybe"], message: "expected on or off, found 'maybe'", verb: "set reduce-motion"),
        Invalid(name: "theme set without a value", arguments: ["theme", "set", "motion.hideDip"], message: "missing argument VALUE", verb: "theme set"),
        Invalid(name: "animation of something else", arguments: ["animation", "set", "chrome", "theme"],
                message: "expected convert or peek, found 'chrome'", verb: "animation set"),
        Invalid(name: "animation with a bad curve", arguments: ["animation", "set", "peek", "spring:fast"],
                message: "unknown curve 'spring:fast' (chrome, theme, none, spring:RESPONSE:DAMPING, linear:DURATION, bezier:X1,Y1,X2,Y2:DURATION)",
                verb: "animation set"),
        Invalid(name: "animation bezier with x out of range", arguments: ["animation", "set", "peek", "bezier:2,0,1,1:1"],
                message: "unknown curve 'bezier:2,0,1,1:1' (chrome, theme, none, spring:RESPONSE:DAMPING, linear:DURATION, bezier:X1,Y1,X2,Y2:DURATION)",
                verb: "animation set"),
        Invalid(name: "end without M/A", arguments: ["end", "timer"], message: "expected MODULE/ACTIVITY, found 'timer'", verb: "end"),
        Invalid(name: "record without a file", arguments: ["record", "--count", "2"], message: "missing option --svg FILE", verb: "record"),
        Invalid(name: "record with both limits", arguments: ["record", "--svg", "a.svg", "--count", "2", "--seconds", "3"],
                message: "options --count and --seconds exclude each other", verb: "record"),
        Invalid(name: "record with bad seconds", arguments: ["record", "--svg", "a.svg", "--seconds", "soon"],
                message: "option '--seconds' needs a duration above 0, found 'soon'", verb: "record"),
    ]

    @Test(arguments: invalid) func refuses(_ case_: Invalid) {
        #expect(throws: UsageError(case_.message, verb: case_.verb)) { try ArgumentParser.parse(case_.arguments) }
    }

    @Test func everyVerbHasHelpFromTheTable() {
        for verb in VerbTable.verbs {
            let help = HelpText.help(for: verb.name)
            #expect(help.hasPrefix(verb.usageLine + "\n"), "\(verb.name)")
            #expect(help.contains("calls: " + verb.calls))
            for option in verb.options { #expect(help.contains(option.name), "\(verb.name) \(option.name)") }
            #expect(HelpText.overview.contains(verb.name))
        }
    }
}
