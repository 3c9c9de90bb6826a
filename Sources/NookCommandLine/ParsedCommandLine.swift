/// The options and positionals of a command line its interface accepted. The typed readers
/// check each value's documented range and end the program (exit 2) naming the option.
public struct ParsedCommandLine: Sendable {
    public let interface: CommandLineInterface
    /// Every option given, by its long name (a flag's value is "").
    public let values: [String: String]
    public let positionals: [String]

    /// True when the flag (or valued option) was given.
    public func flag(_ name: String) -> Bool { values[name] != nil }

    /// The option's value, or nil when it was not given.
    public func value(_ name: String) -> String? { values[name] }

    /// The option's value, which must not be empty and at most `maxLength` characters.
    public func text(_ name: String, maxLength: Int = 4096) -> String? {
        guard let text = values[name] else { return nil }
        guard (1...maxLength).contains(text.count) else {
            interface.fail("option '\(name)' needs a value of 1...\(maxLength) characters, got '\(text.prefix(200))'")
        }
        return text
    }

    /// The option's value as a finite number in `range`, or nil when it was not given.
    public func number(_ name: String, in range: ClosedRange<Double>) -> Double? {
        guard let text = values[name] else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            interface.fail("option '\(name)' needs a number in \(range.lowerBound)...\(range.upperBound), got '\(text.prefix(200))'")
        }
        return number
    }

    /// The option's value as a whole number in `range`, or nil when it was not given.
    public func integer(_ name: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            interface.fail("option '\(name)' needs a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text.prefix(200))'")
        }
        return number
    }
}
