import NookBus

/// Every nookctl verb, one row each. Parsing and help both read this table only.
public enum VerbTable {
    public static let verbs: [VerbSpec] = [
        VerbSpec("status", "[--json | --format text|json|waybar] [--follow]",
                 summary: "Print the presentation, focus, serial, Reduce Motion and activities in display order; --follow prints it again on every change (for status bars).",
                 options: [OptionSpec("--json", "one JSON object (what GetState returns)"),
                           OptionSpec("--format", "FORMAT", "text (default), json, or waybar (Waybar's custom-module JSON)"),
                           OptionSpec("--follow", "print a line (a block for text) per StateChanged until interrupted")],
                 calls: "\(C.Control.getState.brief), \(C.Control.stateChanged.brief)") { p throws(UsageError) in
            var format = StatusFormat.text
            if let text = p["--format"] {
                guard let chosen = StatusFormat(rawValue: text) else {
                    throw UsageError("--format: expected text, json or waybar, found '\(text)'", verb: p.verb)
                }
                format = chosen
            }
            if p.has("--json") {
                guard p["--format"] == nil || format == .json else { throw UsageError("give --json or --format, not both", verb: p.verb) }
                format = .json
            }
            return format == .text && !p.has("--follow") ? .status : .statusAs(format, follow: p.has("--follow"))
        },
        VerbSpec("activities", summary: "Print the live activities as MODULE/ACTIVITY, in display order.",
                 calls: "\(C.Control.getState.brief)") { _ throws(UsageError) in .activities },
        VerbSpec("modules", summary: "Print the registered modules, by id (GetState's modules; from an older nookd, those with live activities).",
                 calls: "\(C.Control.getState.brief)") { _ throws(UsageError) in .modules },
        VerbSpec("show", summary: "Show the nook.", calls: "\(C.Control.show.brief)") { _ throws(UsageError) in .show },
        VerbSpec("hide", summary: "Hide the nook.", calls: "\(C.Control.hide.brief)") { _ throws(UsageError) in .hide },
        VerbSpec("open", "[--activity M/A | --home M | --board] [--via claim|hover]",
                 summary: "Open the nook onto an activity's expanded view, a module's home or the board; prints the plan's serial.",
                 options: targetOptions, calls: "\(C.Control.open.brief)") { p throws(UsageError) in
            .open(try target(p), via: try ValueParsing.via(p["--via"], verb: p.verb))
        },
        VerbSpec("close", summary: "Close the nook back to the pill (or hidden); prints the plan's serial.",
                 calls: "\(C.Control.close.brief)") { _ throws(UsageError) in .close },
        VerbSpec("toggle", summary: "Open the nook if it shows the pill (or nothing), close it if it is open; prints the plan's serial. For a key binding.",
                 calls: "\(C.Control.getState.brief), then \(C.Control.open.brief) or \(C.Control.close.brief)") { _ throws(UsageError) in
            .toggle
        },
        VerbSpec("focus", summary: "Give the nook the keyboard (bind it to a key): Tab or the arrow keys move through the pill and the capsules, Enter opens, Delete ends, Escape closes and gives the keyboard back; prints the serial.",
                 calls: "\(C.Control.focus.brief)") { _ throws(UsageError) in .focus },
        VerbSpec("osd", "volume|brightness LEVEL | volume mute | caps-lock on|off",
                 summary: "Show an on-screen display for a key binding: the nook peeks at the level (0 to 100, or 40%) or the state, replaces the display a previous call left, and ends it by itself 1.5 s after the last call (activity osd/volume, osd/brightness, osd/caps-lock).",
                 positionals: [PositionalSpec("KIND", "volume, brightness or caps-lock"),
                               PositionalSpec("VALUE", "a level 0 to 100 (volume and brightness), mute (volume), on or off (caps-lock)")],
                 calls: "\(C.Modules.register.brief), \(C.Modules.updateActivity.brief) (\(C.Modules.startActivity.brief) the first time), \(C.Control.peek.brief)") { p throws(UsageError) in
            .osd(try OSDRequest.parse(kind: p.positionals[0], value: p.positionals.count > 1 ? p.positionals[1] : nil, verb: p.verb))
        },
        VerbSpec("peek", "M/A", summary: "Peek one activity; prints the plan's serial.",
                 positionals: [PositionalSpec("M/A", "the module and activity to peek")],
                 calls: "\(C.Control.peek.brief)") { p throws(UsageError) in
            let (module, activity) = try ValueParsing.moduleActivity(p.positionals[0], verb: p.verb)
            return .peek(module: module, activity: activity)
        },
        VerbSpec("unpeek", summary: "End the peek; prints the plan's serial.", calls: "\(C.Control.endPeek.brief)") { _ throws(UsageError) in
            .unpeek
        },
        VerbSpec("companion", "M | --close", summary: "Open a module's companion window, or close it; prints the plan's serial.",
                 options: [OptionSpec("--close", "close the companion window")],
                 positionals: [PositionalSpec("M", optional: true, "the module whose companion opens")],
                 calls: "\(C.Control.openCompanion.brief), \(C.Control.closeCompanion.brief)") { p throws(UsageError) in
            switch (p.positionals.first, p.has("--close")) {
            case (let module?, false): return .companion(module: try ValueParsing.module(module, verb: p.verb))
            case (nil, true): return .companion(module: nil)
            case (_?, true): throw UsageError("give a module or --close, not both", verb: p.verb)
            case (nil, false): throw UsageError("missing argument M (or --close)", verb: p.verb)
            }
        },
        VerbSpec("display", "--width W --height H [--notch WxH]",
                 summary: "Tell the broker the display changed; prints the plan's serial.",
                 options: displayOptions, calls: "\(C.Control.displayChanged.brief)") { p throws(UsageError) in
            for required in ["--width", "--height"] where !p.has(required) {
                throw UsageError("missing option \(required) \(required == "--width" ? "W" : "H")", verb: p.verb)
            }
            return .display(try display(p, defaults: DisplayArguments(width: 0, height: 0)))
        },
        VerbSpec("preview", "ACTION [M/A] [--activity M/A | --home M | --board] [--via claim|hover] [--json]",
                 summary: "Dry run: print the plan ACTION would cause now and why each element moves or not. Changes nothing.",
                 options: targetOptions + [OptionSpec("--json", "print the plan as one JSON object instead")],
                 positionals: [PositionalSpec("ACTION", "open, close, peek, end_peek, show or hide"),
                               PositionalSpec("M/A", optional: true, "for peek: the activity to peek")],
                 calls: "\(C.Control.previewPlan.brief)") { p throws(UsageError) in try preview(p) },
        VerbSpec("watch", "[--json] [--count N] [--width W --height H --notch WxH]",
                 summary: "Subscribe as a renderer and print one line per plan (--json: one JSON object per line).",
                 options: [OptionSpec("--json", "one JSON object per plan"),
                           OptionSpec("--count", "N", "stop after N plans, the subscription's first included")] + displayOptions,
                 calls: "\(C.Render.subscribe.brief), \(C.Render.plan.brief), \(C.Render.unsubscribe.brief)") { p throws(UsageError) in
            let count = try p["--count"].map { (text: String) throws(UsageError) in try ValueParsing.count(text, option: "--count", verb: p.verb) }
            return .watch(json: p.has("--json"), display: try display(p, defaults: .defaultRenderer), count: count)
        },
        VerbSpec("set reduce-motion", "on|off", summary: "Turn Reduce Motion on or off.",
                 positionals: [PositionalSpec("on|off", "the new setting")],
                 calls: "Properties.Set(\"\(C.Control.interface)\", \"\(C.Control.reduceMotion.name)\", <b>)") { p throws(UsageError) in
            .setReduceMotion(try ValueParsing.onOff(p.positionals[0], verb: p.verb))
        },
        VerbSpec("reload", summary: "Make nookd read its theme file again (as SIGHUP does); a bad file is refused, naming the token, and the theme stays. Then, when nook-notifications serves, make it read its rules file again; a bad one is refused, naming its line and key (exit status 1), and the previous rules stay.",
                 calls: "\(C.Control.reloadTheme.brief); " + NotificationsVerbs.onTheServer(C.Notifications.reloadRules)) { _ throws(UsageError) in .reload },
        VerbSpec("theme show", summary: "Print the resolved theme tokens, one 'path = value' per line.",
                 calls: "\(C.Control.getTokens.brief)") { _ throws(UsageError) in .themeShow },
        VerbSpec("theme load", "FILE", summary: "Send every token of a DTCG JSON file; the broker validates them as a whole.",
                 positionals: [PositionalSpec("FILE", "a DTCG theme file (theme.json)")],
                 calls: "\(C.Control.setTokens.brief)") { p throws(UsageError) in .themeLoad(path: p.positionals[0]) },
        VerbSpec("theme set", "TOKEN VALUE",
                 summary: "Set one token: an alias ({transition.peek}), a duration (240ms), a number, or JSON for a spring or Bézier.",
                 positionals: [PositionalSpec("TOKEN", "a dotted token path, e.g. motion.hideDip"),
                               PositionalSpec("VALUE", "the token's new value")],
                 calls: "\(C.Control.setTokens.brief)") { p throws(UsageError) in
            .themeSet(token: p.positionals[0], value: ValueParsing.tokenValue(p.positionals[1]))
        },
        VerbSpec("animation set", "convert|peek CURVE",
                 summary: "Override a shared-element curve: chrome (ride the chrome's), theme (back to the token) or a curve.",
                 positionals: [PositionalSpec("convert|peek", "which curve"),
                               PositionalSpec("CURVE", ValueParsing.curveGrammar)],
                 calls: "\(C.Control.setSharedElementAnimation.brief)") { p throws(UsageError) in
            let which = p.positionals[0]
            guard which == "convert" || which == "peek" else { throw UsageError("expected convert or peek, found '\(which)'", verb: p.verb) }
            return .animationSet(which: which, curve: try ValueParsing.curve(p.positionals[1], verb: p.verb))
        },
        VerbSpec("end", "M/A [--immediate]",
                 summary: "End any module's activity, as the user (its module is told with a diagnostic).",
                 options: [OptionSpec("--immediate", "dismissal 'immediate' instead of 'default'")],
                 positionals: [PositionalSpec("M/A", "the activity to end")],
                 calls: "\(C.Control.endActivity.brief)") { p throws(UsageError) in
            let (module, activity) = try ValueParsing.moduleActivity(p.positionals[0], verb: p.verb)
            return .end(module: module, activity: activity, dismissal: p.has("--immediate") ? "immediate" : "default")
        },
        VerbSpec("record", "--svg FILE [--count N | --seconds S] [--width W --height H --notch WxH]",
                 summary: "Subscribe, collect plans (10 s unless told), and draw them into one animated SVG.",
                 options: [OptionSpec("--svg", "FILE", "where to write the SVG"),
                           OptionSpec("--count", "N", "stop after N plans, the subscription's first included"),
                           OptionSpec("--seconds", "S", "stop after S seconds")] + displayOptions,
                 calls: "\(C.Render.subscribe.brief), \(C.Render.plan.brief), \(C.Render.unsubscribe.brief)") { p throws(UsageError) in
            guard let file = p["--svg"] else { throw UsageError("missing option --svg FILE", verb: p.verb) }
            let limit: RecordLimit
            switch (p["--count"], p["--seconds"]) {
            case (_?, _?): throw UsageError("options --count and --seconds exclude each other", verb: p.verb)
            case (let count?, nil): limit = .count(try ValueParsing.count(count, option: "--count", verb: p.verb))
            case (nil, let seconds?):
                guard let value = ValueParsing.seconds(seconds), value > 0 else {
                    throw UsageError("option '--seconds' needs a duration above 0, found '\(seconds)'", verb: p.verb)
                }
                limit = .seconds(value)
            case (nil, nil): limit = .seconds(10)
            }
            return .record(svg: file, limit: limit, display: try display(p, defaults: .defaultRenderer))
        },
        // Controls (contract 1.1, Touch): VerbTable+Touch.swift parses their arguments.
        VerbSpec("press", "M/A ACTION | M ACTION",
                 summary: "Press a control: the view of activity M/A (or module M's own views) with that action runs it in its module.",
                 positionals: [PositionalSpec("M/A | M", "the activity, or the module for its own views (home, widget, compact)"),
                               PositionalSpec("ACTION", "the control's action id (nookctl actions lists them)")],
                 calls: "\(C.Control.invoke.brief)") { p throws(UsageError) in try press(p) },
        VerbSpec("actions", "M/A | M",
                 summary: "List the controls of an activity (or of module M's own views) on screen now: action, label, slot and path.",
                 positionals: [PositionalSpec("M/A | M", "the activity, or the module for its own views")],
                 calls: "\(C.Control.previewPlan.brief) (the scene of 'show': what the nook shows now)") { p throws(UsageError) in
            try actions(p)
        },
    ] + ActivityVerbs.rows + TimerVerbs.rows + NotificationsVerbs.rows

    static let targetOptions = [
        OptionSpec("--activity", "M/A", "onto this activity's expanded view"),
        OptionSpec("--home", "M", "onto this module's home"),
        OptionSpec("--board", "onto the board of widgets"),
        OptionSpec("--via", "claim|hover", "how the open is asked for (default claim: may dip through hidden)"),
    ]

    static let displayOptions = [
        OptionSpec("--width", "W", "display width in points"),
        OptionSpec("--height", "H", "display height in points"),
        OptionSpec("--notch", "WxH", "notch size in points, e.g. 200x32"),
    ]

    static func target(_ p: ParsedArguments) throws(UsageError) -> OpenTarget {
        let given = ["--activity", "--home", "--board"].filter(p.has)
        guard given.count <= 1 else { throw UsageError("options --activity, --home and --board exclude each other", verb: p.verb) }
        if let text = p["--activity"] {
            let (module, activity) = try ValueParsing.moduleActivity(text, verb: p.verb)
            return .activity(module: module, activity: activity)
        }
        if let module = p["--home"] { return .home(module: try ValueParsing.module(module, verb: p.verb)) }
        return p.has("--board") ? .board : .automatic
    }

    static func display(_ p: ParsedArguments, defaults: DisplayArguments) throws(UsageError) -> DisplayArguments {
        var display = defaults
        if let text = p["--width"] { display.width = try ValueParsing.number(text, option: "--width", verb: p.verb) }
        if let text = p["--height"] { display.height = try ValueParsing.number(text, option: "--height", verb: p.verb) }
        if let text = p["--notch"] {
            let (width, height) = try ValueParsing.size(text, option: "--notch", verb: p.verb)
            display.notchWidth = width
            display.notchHeight = height
        }
        return display
    }

    static let previewActions = ["open", "close", "peek", "end_peek", "show", "hide"]

    static func preview(_ p: ParsedArguments) throws(UsageError) -> Command {
        let action = p.positionals[0]
        guard previewActions.contains(action) else {
            throw UsageError("unknown preview action '\(action)' (\(previewActions.joined(separator: ", ")))", verb: p.verb)
        }
        var options: [String: DBusValue] = [:]
        let targeted = ["--activity", "--home", "--board", "--via"].contains(where: p.has)
        if targeted && action != "open" {
            throw UsageError("options --activity, --home, --board and --via apply to 'preview open' only", verb: p.verb)
        }
        if action == "open" {
            options = try target(p).options
            if let via = try ValueParsing.via(p["--via"], verb: p.verb) { options["via"] = .string(via) }
        }
        if action == "peek" {
            guard p.positionals.count == 2 else { throw UsageError("missing argument M/A (preview peek needs it)", verb: p.verb) }
            let (module, activity) = try ValueParsing.moduleActivity(p.positionals[1], verb: p.verb)
            options = ["module": .string(module), "activity": .string(activity)]
        } else if p.positionals.count == 2 {
            throw UsageError("unexpected argument '\(p.positionals[1])' (only 'preview peek' takes M/A)", verb: p.verb)
        }
        return .preview(action: action, options: options, json: p.has("--json"))
    }

    // MARK: Lookup

    /// True for the first word of two-word verbs (`theme`, `set`, `animation`).
    static func isGroup(_ word: String) -> Bool { verbs.contains { $0.name.hasPrefix(word + " ") } }

    /// The row the command line names and how many words its name took.
    static func resolve(_ tokens: [String]) throws(UsageError) -> (VerbSpec, Int) {
        let first = tokens[0]
        if let exact = verbs.first(where: { $0.name == first }) { return (exact, 1) }
        let group = verbs.filter { $0.name.hasPrefix(first + " ") }
        guard !group.isEmpty else { throw UsageError("unknown verb '\(first)'") }
        let choices = group.map { String($0.name.dropFirst(first.count + 1)) }.joined(separator: ", ")
        guard tokens.count > 1 else { throw UsageError("'\(first)' needs one of: \(choices)", verb: first) }
        guard let row = group.first(where: { $0.name == first + " " + tokens[1] }) else {
            throw UsageError("unknown \(first) command '\(tokens[1])' (\(choices))", verb: first)
        }
        return (row, 2)
    }

    /// The rows a help request covers: one verb, or every row of a group.
    public static func rows(for name: String) -> [VerbSpec] {
        if let exact = verbs.first(where: { $0.name == name }) { return [exact] }
        return verbs.filter { $0.name.hasPrefix(name + " ") }
    }
}

/// The contract's methods, for the `calls:` lines of the help.
private typealias C = NookContract
