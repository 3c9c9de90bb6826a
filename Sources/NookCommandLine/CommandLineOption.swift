/// One option a program accepts: `--name`, perhaps a one-letter `-x`, perhaps a value.
public struct CommandLineOption: Hashable, Sendable {
    /// What the option's value is.
    public enum Value: Hashable, Sendable {
        /// A flag: `--verbose`.
        case none
        /// Always a value: `--address ADDR` or `--address=ADDR`.
        case required(placeholder: String)
        /// `--measure-text [FILE]`: the next word is the value unless it looks like an option.
        case optional(placeholder: String)
    }

    /// `--name`, with both dashes.
    public let name: String
    /// `-x`, with its dash, or nil.
    public let short: String?
    public let value: Value
    /// One line for `--help`.
    public let help: String

    public init(_ name: String, short: String? = nil, value: Value = .none, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }

    /// `--name`: on or off.
    public static func flag(_ name: String, short: String? = nil, help: String) -> Self {
        Self(name, short: short, help: help)
    }

    /// `--name PLACEHOLDER`.
    public static func value(_ name: String, _ placeholder: String, help: String) -> Self {
        Self(name, value: .required(placeholder: placeholder), help: help)
    }

    /// `--name [PLACEHOLDER]`.
    public static func optionalValue(_ name: String, _ placeholder: String, help: String) -> Self {
        Self(name, value: .optional(placeholder: placeholder), help: help)
    }

    /// `--address ADDR`, `--measure-text [FILE]`, `-h, --help`: the left column of `--help`.
    var synopsis: String {
        let names = short.map { "\($0), \(name)" } ?? name
        switch value {
        case .none: return names
        case .required(let placeholder): return "\(names) \(placeholder)"
        case .optional(let placeholder): return "\(names) [\(placeholder)]"
        }
    }
}
