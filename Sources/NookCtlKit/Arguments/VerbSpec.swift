/// One row of the verb table: its words, what it takes, what it calls, and how its parsed
/// arguments become a `Command`. Help text is generated from these rows only.
public struct VerbSpec: Sendable {
    /// One or two words: `open`, `theme set`.
    public var name: String
    /// Everything after the name in the usage line: `[--via claim|hover]`.
    public var synopsis: String
    /// One sentence for the overview and the verb's help.
    public var summary: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    /// The contract member(s) it calls, for the help text.
    public var calls: String
    let build: @Sendable (ParsedArguments) throws(UsageError) -> Command

    init(_ name: String, _ synopsis: String = "", summary: String, options: [OptionSpec] = [],
         positionals: [PositionalSpec] = [], calls: String,
         build: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Command) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.options = options
        self.positionals = positionals
        self.calls = calls
        self.build = build
    }

    public var usageLine: String { "usage: nookctl " + name + (synopsis.isEmpty ? "" : " " + synopsis) }
}

/// An option: `--via claim|hover` (takes a value) or `--board` (a flag).
public struct OptionSpec: Sendable {
    public var name: String
    /// The value's placeholder, nil for a flag.
    public var value: String?
    public var help: String

    /// An option that takes a value shown as `value` in help.
    init(_ name: String, _ value: String, _ help: String) {
        self.name = name
        self.value = value
        self.help = help
    }

    /// A flag.
    init(_ name: String, _ help: String) {
        self.name = name
        self.value = nil
        self.help = help
    }
}

/// A positional argument, by its placeholder: `M/A`, `ACTION`.
public struct PositionalSpec: Sendable {
    public var name: String
    public var optional: Bool
    public var help: String

    init(_ name: String, optional: Bool = false, _ help: String) {
        self.name = name
        self.optional = optional
        self.help = help
    }
}

/// What the generic pass found for one verb: option values by name (flags map to ""), and
/// positionals in order. The verb's `build` gives them meaning.
public struct ParsedArguments: Sendable {
    public var verb: String
    public var options: [String: String]
    public var positionals: [String]

    public func has(_ option: String) -> Bool { options[option] != nil }
    public subscript(option: String) -> String? { options[option] }
}
