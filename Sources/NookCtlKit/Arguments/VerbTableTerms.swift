/// What the completion scripts and the man page need to know about the verb table, derived
/// from it so they cannot drift: the first words, the groups, and which values an option or a
/// positional accepts.
public enum VerbTableTerms {
    /// The global options, as `ArgumentParser` takes them (`--version` is the executable's).
    public static let globalOptions: [OptionSpec] = [
        OptionSpec("--address", "ADDR", "a D-Bus address to use instead of the session bus"),
        OptionSpec("--help", "show help (the overview, or one verb's)"),
        OptionSpec("--version", "print the version"),
    ]

    /// One first word of the command line: a verb (`open`) or a group of two-word verbs
    /// (`theme`, with its rows).
    public struct FirstWord: Sendable {
        public var word: String
        /// The rows under a group (`theme show`, `theme load`, ...); one row for a plain verb.
        public var rows: [VerbSpec]
        public var isGroup: Bool { rows.count > 1 || rows.first?.name != word }

        /// The verb's summary, or for a group its second words (`show, load or set`).
        public var summary: String {
            guard isGroup else { return rows[0].summary }
            return "\(word) " + rows.map(\.secondWord).joined(separator: ", ")
        }
    }

    /// The table's first words in table order, groups once each.
    public static var firstWords: [FirstWord] {
        var words: [FirstWord] = []
        for verb in VerbTable.verbs {
            let first = verb.firstWord
            if let index = words.firstIndex(where: { $0.word == first }) {
                words[index].rows.append(verb)
            } else {
                words.append(FirstWord(word: first, rows: [verb]))
            }
        }
        return words
    }

    /// Every option that takes a value, over all verbs and the global ones (names are used
    /// consistently across verbs), so a completion can skip option values when counting words.
    public static var valuedOptions: [String] {
        var names: [String] = []
        for option in globalOptions + VerbTable.verbs.flatMap(\.options) where option.value != nil && !names.contains(option.name) {
            names.append(option.name)
        }
        return names
    }

    /// What a placeholder accepts when a shell completes it.
    public enum Values: Equatable, Sendable {
        /// Any text (an id, a number): nothing to offer.
        case free
        /// One of these words.
        case words([String])
        /// A file name.
        case file
    }

    /// `claim|hover` and `on|off` are their words, `FILE` a file, preview's `ACTION` the
    /// actions the parser accepts; anything else is free text.
    public static func values(of placeholder: String) -> Values {
        if placeholder == "FILE" { return .file }
        if placeholder == "ACTION" { return .words(VerbTable.previewActions) }
        if placeholder.contains("|") { return .words(placeholder.split(separator: "|").map(String.init)) }
        return .free
    }
}

extension VerbSpec {
    var firstWord: String { String(name.split(separator: " ")[0]) }
    /// The second word of a two-word verb (`set` of `theme set`), or the name itself.
    var secondWord: String { name.split(separator: " ").dropFirst().first.map(String.init) ?? name }
    var wordCount: Int { name.split(separator: " ").count }
}
