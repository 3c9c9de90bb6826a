import NookCommandLine

/// A parsed command line: the bus to use and the command to run.
public struct Invocation: Hashable, Sendable {
    /// `--address ADDR`, or nil for the session bus.
    public var address: String?
    public var command: Command
}

/// nookctl's hand-written, table-driven parser.
///
/// 1. Global options come out first, wherever they are: `--address ADDR` (or `--address=ADDR`)
///    and `--help`/`-h`. A bare `--` ends option parsing for everything after it.
/// 2. The verb is matched against `VerbTable.verbs` (one or two words: `status`, `theme set`).
/// 3. The rest is split generically into the verb's options and positionals, checking names,
///    repeats, missing values and counts against its row.
/// 4. The row's `build` gives the values meaning and returns the `Command`.
///
/// ```swift
/// let invocation = try ArgumentParser.parse(["open", "--home", "music", "--via", "hover"])
/// invocation.command  // .open(.home(module: "music"), via: "hover")
/// ```
public enum ArgumentParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var address: String?
        var wantsHelp = false
        var rest: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded { rest.append(token); continue }
            switch token {
            case "--":
                optionsEnded = true
                rest.append(token)
            case "--help", "-h":
                wantsHelp = true
            case "--address":
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError("option '--address' needs a value (ADDR)")
                }
                guard address == nil else { throw UsageError("option '--address' given more than once") }
                address = arguments[index]
                index += 1
            default:
                if token.hasPrefix("--address=") {
                    guard address == nil else { throw UsageError("option '--address' given more than once") }
                    address = String(token.dropFirst("--address=".count))
                    guard address?.isEmpty == false else { throw UsageError("option '--address' needs a value (ADDR)") }
                } else {
                    rest.append(token)
                }
            }
        }

        guard let first = rest.first, first != "--" else {
            if wantsHelp { return Invocation(address: address, command: .help(verb: nil)) }
            throw UsageError("missing verb")
        }
        let spec: VerbSpec
        let consumed: Int
        do {
            (spec, consumed) = try VerbTable.resolve(rest)
        } catch {
            // `nookctl theme --help` asks for the group's help, not for a sub-verb.
            if wantsHelp, VerbTable.isGroup(first) { return Invocation(address: address, command: .help(verb: first)) }
            throw error
        }
        if wantsHelp { return Invocation(address: address, command: .help(verb: spec.name)) }
        let parsed = try split(Array(rest.dropFirst(consumed)), for: spec)
        return Invocation(address: address, command: try spec.build(parsed))
    }

    /// Step 3: options and positionals, checked against the row's declarations by the splitter
    /// every Nook program shares (NookCommandLine). `-x` words stay positionals here: values
    /// such as a negative offset or `-` for standard input are common among nookctl's verbs.
    static func split(_ tokens: [String], for spec: VerbSpec) throws(UsageError) -> ParsedArguments {
        let declared = spec.options.map { option in
            CommandLineOption(option.name, value: option.value.map { .required(placeholder: $0) } ?? .none, help: option.help)
        }
        let split: OptionSplitter.Split
        do {
            split = try OptionSplitter.split(tokens, options: declared, shortOptions: false)
        } catch {
            if case .unknown(let name) = error { throw UsageError("unknown option '\(name)' for '\(spec.name)'", verb: spec.name) }
            throw UsageError(error.message, verb: spec.name)
        }
        let options = split.values
        let positionals = split.positionals
        if positionals.count > spec.positionals.count {
            throw UsageError("unexpected argument '\(positionals[spec.positionals.count])'", verb: spec.name)
        }
        if let missing = spec.positionals.dropFirst(positionals.count).first(where: { !$0.optional }) {
            throw UsageError("missing argument \(missing.name)", verb: spec.name)
        }
        return ParsedArguments(verb: spec.name, options: options, positionals: positionals)
    }
}
