/// The one place Nook's programs split a command line into options and positionals: nookctl's
/// verbs (through NookCtlKit) and every other program (through `CommandLineInterface`).
///
/// - `--` ends the options; every word after it is a positional.
/// - `--name VALUE` and `--name=VALUE`; a value never starts with `--` (that is a forgotten value).
/// - An option given twice, an unknown option, a flag given a value: each is an error naming it.
/// - With `shortOptions`, `-x` words are options too (`-` alone and negative numbers are not).
public enum OptionSplitter {
    /// The options given (a flag's value is "") and the positionals, in order.
    public struct Split: Hashable, Sendable {
        public var values: [String: String] = [:]
        public var positionals: [String] = []
    }

    /// What was wrong, naming the option as it was written.
    public enum Problem: Error, Hashable, Sendable {
        case unknown(String)
        case repeated(String)
        case missingValue(String, placeholder: String)
        case unexpectedValue(String)

        /// `unknown option '--frob'`: the words every program prints.
        public var message: String {
            switch self {
            case .unknown(let name): "unknown option '\(name)'"
            case .repeated(let name): "option '\(name)' given more than once"
            case .missingValue(let name, let placeholder): "option '\(name)' needs a value (\(placeholder))"
            case .unexpectedValue(let name): "option '\(name)' takes no value"
            }
        }
    }

    public static func split(_ words: [String], options: [CommandLineOption], shortOptions: Bool = true) throws(Problem) -> Split {
        var split = Split()
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if !optionsEnded, word == "--" { optionsEnded = true; continue }
            guard !optionsEnded, isOption(word, shortOptions: shortOptions) else { split.positionals.append(word); continue }
            var name = word
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name || $0.short == name }) else { throw .unknown(name) }
            guard split.values[option.name] == nil else { throw .repeated(name) }
            switch option.value {
            case .none:
                guard inline == nil else { throw .unexpectedValue(name) }
                split.values[option.name] = ""
            case .required(let placeholder):
                if let inline {
                    split.values[option.name] = inline
                } else if index < words.count, !words[index].hasPrefix("--") {
                    split.values[option.name] = words[index]
                    index += 1
                } else {
                    throw .missingValue(name, placeholder: placeholder)
                }
            case .optional:
                if let inline {
                    split.values[option.name] = inline
                } else if index < words.count, !isOption(words[index], shortOptions: shortOptions) {
                    split.values[option.name] = words[index]
                    index += 1
                } else {
                    split.values[option.name] = ""
                }
            }
        }
        return split
    }

    /// `--x` always; `-x` when short options are on, but not `-` (standard input) or `-5`.
    static func isOption(_ word: String, shortOptions: Bool) -> Bool {
        if word.hasPrefix("--") { return true }
        guard shortOptions, word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }
}
