import NookBus
import NookCore

/// The `activity` rows of `VerbTable` and how their arguments become an `ActivityCommand`.
enum ActivityVerbs {
    static let contentOptions = [
        OptionSpec("--title", "TEXT", "the title (start needs it, unless --view-json labels the activity)"),
        OptionSpec("--subtitle", "TEXT", "a second line under the title"),
        OptionSpec("--symbol", "NAME", "an icon name (hammer.fill, network-wireless-symbolic): the element that grows from the pill"),
        OptionSpec("--image", "FILE", "an image file (a regular file: PNG, JPEG, GIF, WebP or SVG) shown instead of a symbol"),
        OptionSpec("--progress", "FRACTION", "0 to 1 (or 0% to 100%): a ring in the pill, a bar when expanded"),
        OptionSpec("--timer", "DURATION", "a countdown from now (5m, 1h30m) that the renderer runs by itself"),
    ]

    static let stayOptions = [
        OptionSpec("--expires", "DURATION", "when the broker ends it, from now; at most 24h (default for start: 1h, or a minute after --timer ends)"),
        OptionSpec("--relevance", "NUMBER", "higher shows first (default 0)"),
        OptionSpec("--view-json", "FILE", "the views as JSON, at most 4 MiB (- reads standard input; docs/scripting.md); excludes the content options but --title"),
        OptionSpec("--dismissible", "on|off", "off: a person cannot end it by hand (no close control, no middle click or Delete); activity end still can (default on)"),
        OptionSpec("--no-sound", "with --timer: play no sound when the countdown reaches zero"),
    ]

    static let rows: [VerbSpec] = [
        VerbSpec("activity start", "M/A --title TEXT [--subtitle TEXT] [--symbol NAME | --image FILE] [--progress F] [--timer D] [--expires D] [--relevance N] [--dismissible on|off] [--view-json FILE]",
                 summary: "Publish an activity from a shell: register the module, start a detached activity with a pill, peek and expanded view built from the options, and exit. It stays until --expires.",
                 options: contentOptions + stayOptions,
                 positionals: [PositionalSpec("M/A", "the module and activity to start")],
                 calls: "\(C.Modules.register.brief), \(C.Modules.startActivity.brief)") { p throws(UsageError) in
            .activity(.start(try request(p, isStart: true)))
        },
        VerbSpec("activity update", "M/A [--title TEXT] [--subtitle TEXT] [--progress F] [--timer D] [--expires D] [...]",
                 summary: "Change what is given and keep the rest (nookctl remembers what it built; an empty value, --subtitle '', clears one).",
                 options: contentOptions + stayOptions,
                 positionals: [PositionalSpec("M/A", "the activity to update")],
                 calls: "\(C.Modules.register.brief), \(C.Modules.updateActivity.brief)") { p throws(UsageError) in
            .activity(.update(try request(p, isStart: false)))
        },
        VerbSpec("activity end", "M/A [--immediate]",
                 summary: "End an activity as its module (nookctl registers the module first).",
                 options: [OptionSpec("--immediate", "dismissal 'immediate' instead of 'default'")],
                 positionals: [PositionalSpec("M/A", "the activity to end")],
                 calls: "\(C.Modules.register.brief), \(C.Modules.endActivity.brief)") { p throws(UsageError) in
            let (module, activity) = try ValueParsing.moduleActivity(p.positionals[0], verb: p.verb)
            return .activity(.end(module: module, activity: activity, dismissal: p.has("--immediate") ? "immediate" : "default"))
        },
        VerbSpec("activity finish", "M/A [--wait] [--no-sound] [--expires D] [--peek D]",
                 summary: "A countdown says Done: its views and label say so, the nook peeks at it and the sound theme's `complete` plays (through canberra-gtk-play, when installed). `start --timer` runs `finish --wait` in the background, so a timer finishes by itself at zero.",
                 options: [
                    OptionSpec("--wait", "first wait until the countdown nookctl remembers reaches zero; do nothing if it was changed or ended meanwhile"),
                    OptionSpec("--no-sound", "play no sound"),
                    OptionSpec("--expires", "DURATION", "end it this long from now (default: keep the date set at start, a minute after zero)"),
                    OptionSpec("--peek", "DURATION", "how long the nook peeks at it (default 8s), at most 1h"),
                 ],
                 positionals: [PositionalSpec("M/A", "the countdown to finish")],
                 calls: "\(C.Modules.register.brief), \(C.Modules.updateActivity.brief), \(C.Control.peek.brief), \(C.Control.getState.brief), \(C.Control.endPeek.brief)") { p throws(UsageError) in
            let (module, activity) = try ValueParsing.moduleActivity(p.positionals[0], verb: p.verb)
            var finish = ActivityFinish(module: module, activity: activity)
            finish.wait = p.has("--wait")
            finish.playsSound = !p.has("--no-sound")
            if let expires = p["--expires"] { finish.expires = try duration(expires, option: "--expires", verb: p.verb) }
            if let peek = p["--peek"] {
                let seconds = try duration(peek, option: "--peek", verb: p.verb)
                guard seconds <= 3600 else { throw UsageError("option '--peek' must be at most 1h, found '\(peek)'", verb: p.verb) }
                finish.peekSeconds = seconds
            }
            return .activity(.finish(finish))
        },
        VerbSpec("activity list", "[--json]",
                 summary: "Print the live activities in display order: MODULE/ACTIVITY, role and label (--json: GetState's items as a JSON array).",
                 options: [OptionSpec("--json", "one JSON array of GetState's items")],
                 calls: "\(C.Control.getState.brief)") { p throws(UsageError) in .activity(.list(json: p.has("--json"))) },
    ]

    static func request(_ p: ParsedArguments, isStart: Bool) throws(UsageError) -> ActivityRequest {
        let (module, activity) = try ValueParsing.moduleActivity(p.positionals[0], verb: p.verb)
        var request = ActivityRequest(module: module, activity: activity)
        request.viewJSON = p["--view-json"]
        if request.viewJSON != nil {
            let built = ["--subtitle", "--symbol", "--image", "--progress", "--timer"].filter(p.has)
            guard built.isEmpty else {
                throw UsageError("--view-json gives the whole view; leave out \(built.joined(separator: ", "))", verb: p.verb)
            }
        } else if isStart, p["--title"] == nil {
            throw UsageError("missing option --title TEXT (or --view-json FILE)", verb: p.verb)
        }
        if isStart, p["--title"] == "" { throw UsageError("option '--title' needs a non-empty title", verb: p.verb) }
        if let title = p["--title"] { request.content.title = title.isEmpty ? .clear : .set(title) }
        request.content.subtitle = text(p["--subtitle"])
        if let symbol = p["--symbol"], p["--image"].map({ !$0.isEmpty }) == true, !symbol.isEmpty {
            throw UsageError("give --symbol or --image, not both", verb: p.verb)
        }
        request.content.symbol = text(p["--symbol"])
        request.content.image = text(p["--image"])
        if let progress = p["--progress"] {
            request.content.progress = progress.isEmpty ? .clear : .set(try fraction(progress, verb: p.verb))
        }
        if let timer = p["--timer"] {
            request.content.timer = timer.isEmpty ? .clear : .set(try duration(timer, option: "--timer", verb: p.verb))
        }
        if let expires = p["--expires"] { request.expires = try duration(expires, option: "--expires", verb: p.verb) }
        request.playsSound = !p.has("--no-sound")
        if let dismissible = p["--dismissible"] {
            guard dismissible == "on" || dismissible == "off" else {
                throw UsageError("option '--dismissible' needs on or off, found '\(dismissible)'", verb: p.verb)
            }
            request.dismissible = dismissible == "on"
        }
        if let text = p["--relevance"] {
            guard let relevance = Double(text), NumberDomain.relevance.problem(relevance) == nil else {
                throw UsageError("option '--relevance' needs a number in \(NumberDomain.relevance.rangeText), found '\(text)'", verb: p.verb)
            }
            request.relevance = relevance
        }
        if !isStart, request.content.isEmpty, request.viewJSON == nil, request.expires == nil, request.relevance == nil,
           request.dismissible == nil {
            throw UsageError("nothing to update: give --title, --subtitle, --symbol, --image, --progress, --timer, --expires, --relevance, --dismissible or --view-json", verb: p.verb)
        }
        return request
    }

    /// A text flag: set, or cleared by an empty value.
    static func text(_ value: String?) -> FieldChange<String> {
        guard let value else { return .keep }
        return value.isEmpty ? .clear : .set(value)
    }

    /// `0.4` or `40%`, in 0...1.
    static func fraction(_ text: String, verb: String) throws(UsageError) -> Double {
        let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let value, NumberDomain.unitInterval.contains(value) else {
            throw UsageError("option '--progress' needs a fraction from 0 to 1 (or 0% to 100%), found '\(text)'", verb: verb)
        }
        return value
    }

    /// A duration above 0 and within the 24 h cap of a detached activity.
    static func duration(_ text: String, option: String, verb: String) throws(UsageError) -> Double {
        guard let seconds = DurationArgument.seconds(text) else {
            throw UsageError("option '\(option)' needs a duration such as 90s, 30m, 2h or 1h30m, found '\(text)'", verb: verb)
        }
        guard seconds <= ActivityRequest.maxExpiry else {
            throw UsageError("option '\(option)' must be at most 24h (a detached activity ends within 24 hours), found '\(text)'", verb: verb)
        }
        return seconds
    }
}

/// The contract's methods, for the `calls:` lines of the help.
private typealias C = NookContract
