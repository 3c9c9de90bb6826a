/// Help generated from `VerbTable`: the overview, and each verb's usage, options and calls.
public enum HelpText {
    public static let exitCodes = "exit status: 0 ok, 1 a failure (a D-Bus error prints its name and message), 2 usage"
    static let global = "global options: --address ADDR (a D-Bus address; default: the session bus), --help, --version (alone)"

    public static var overview: String {
        let width = VerbTable.verbs.map(\.name.count).max() ?? 0
        var lines = ["usage: nookctl [--address ADDR] VERB [ARGUMENTS...]", "",
                     "Script, watch and record the Nook broker (org.nook.Nook1).", "", "verbs:"]
        for verb in VerbTable.verbs {
            lines.append("  " + pad(verb.name, width) + "  " + verb.summary)
        }
        lines += ["", "Run 'nookctl VERB --help' for a verb's arguments.", global, exitCodes]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Help for a verb or a group of two-word verbs (`theme`); the overview for anything else.
    public static func help(for name: String?) -> String {
        guard let name else { return overview }
        let rows = VerbTable.rows(for: name)
        guard !rows.isEmpty else { return overview }
        return rows.map(help(for:)).joined(separator: "\n") + "\n" + global + "\n" + exitCodes + "\n"
    }

    static func help(for verb: VerbSpec) -> String {
        var lines = [verb.usageLine, "", verb.summary]
        let entries = verb.positionals.map { ($0.name, $0.help) }
            + verb.options.map { ($0.name + ($0.value.map { " " + $0 } ?? ""), $0.help) }
        if !entries.isEmpty {
            let width = entries.map(\.0.count).max() ?? 0
            lines.append("")
            for (name, help) in entries { lines.append("  " + pad(name, width) + "  " + help) }
        }
        lines += ["", "calls: " + verb.calls]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The usage lines that go with a usage error: the verb's (or group's), else the overview's.
    public static func usage(for name: String?) -> String {
        guard let name else { return "usage: nookctl [--address ADDR] VERB [ARGUMENTS...] (nookctl --help lists the verbs)\n" }
        return VerbTable.rows(for: name).map { $0.usageLine + "\n" }.joined()
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
