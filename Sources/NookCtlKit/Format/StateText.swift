import NookBus
import NookCore

/// `status`, `activities` and `modules` output from `GetState`'s `a{sv}`, read with NookCore's
/// field reader: an absent key reads as nothing, one of another type throws naming it.
public enum StateText {
    /// `(module, activity)` pairs of `activities` `a(ss)`, in display order.
    public static func activities(_ state: WireFields) throws(WireFieldError) -> [(module: String, activity: String)] {
        guard let value = state.fields["activities"] else { return [] }
        guard case .array(let items) = value else { throw state.wrongType("activities", expected: "a(ss)", found: value) }
        var pairs: [(module: String, activity: String)] = []
        for (index, item) in items.enumerated() {
            guard case .structure(let fields) = item, fields.count == 2, case .string(let module) = fields[0],
                  case .string(let activity) = fields[1] else { throw state.wrongType("activities.\(index)", expected: "(ss)", found: item) }
            pairs.append((module, activity))
        }
        return pairs
    }

    public static func status(_ state: WireFields) throws(WireFieldError) -> String {
        let module = try state.string("module", default: "")
        let activity = try state.string("activity", default: "")
        let presentation = try state.string("presentation", default: "")
        let focus = module.isEmpty ? "-" : (activity.isEmpty ? module : module + "/" + activity)
        let list = try activities(state)
        var lines = [
            "presentation   " + (presentation.isEmpty ? "-" : presentation),
            "focus          " + focus,
            "serial         \(try state.uint("serial", default: 0))",
            "reduce motion  " + (try state.bool("reduce_motion", default: false) ? "on" : "off"),
            "activities     \(list.count)",
        ]
        for (index, entry) in list.enumerated() { lines.append("  \(index + 1). \(entry.module)/\(entry.activity)") }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func activityList(_ state: WireFields) throws(WireFieldError) -> String {
        try activities(state).map { "\($0.module)/\($0.activity)\n" }.joined()
    }

    /// The modules GetState names: its `modules` (contract 1.1: one `a{sv}` per registered
    /// module, `module` its id) when present, else the modules of the live activities, first
    /// appearance first.
    public static func moduleList(_ state: WireFields) throws(WireFieldError) -> String {
        var names: [String] = []
        if state.has("modules") {
            for module in try state.records("modules") { names.append(try module.string("module")) }
        } else {
            for entry in try activities(state) where !names.contains(entry.module) { names.append(entry.module) }
        }
        return names.map { $0 + "\n" }.joined()
    }

    /// `theme show`: one `path = value` line per token of `GetTokens`' `a{sv}`, sorted by path,
    /// values as JSON.
    public static func tokens(_ tokens: DBusValue) -> String {
        guard case .dictionary(_, _, let entries) = tokens.unwrappingVariants else { return "" }
        let lines = entries.compactMap { entry -> (String, String)? in
            guard case .string(let path) = entry.key else { return nil }
            return (path, "\(path) = \(PlanJSON.json(entry.value))\n")
        }
        return lines.sorted { $0.0 < $1.0 }.map(\.1).joined()
    }

    /// `status` in `format`: text as `status` prints it, or one line of JSON (the state as
    /// `GetState` returns it, or Waybar's custom-module object).
    public static func formatted(_ state: DBusValue, as format: StatusFormat, doNotDisturb: DBusValue? = nil) throws(WireFieldError) -> String {
        switch format {
        case .text: try status(WireFields(reply: state))
        case .json: PlanJSON.json(state) + "\n"
        case .waybar: try waybar(WireFields(reply: state), doNotDisturb: doNotDisturb) + "\n"
        }
    }

    /// Waybar's `return-type: json` object: `text` the primary activity's label, `tooltip`
    /// every activity's label, `class` the presentation, `alt` the primary activity's module.
    /// While nook-notifications' do not disturb is on (`doNotDisturb`, its `DoNotDisturb()`
    /// state), `text` ends in `DND` and the count of notifications that arrived meanwhile
    /// (`DND 3`), and the tooltip's first line says so.
    public static func waybar(_ state: WireFields, doNotDisturb: DBusValue? = nil) throws(WireFieldError) -> String {
        var labels: [(module: String, label: String)] = []
        for item in try state.records("items") {
            labels.append((try item.string("module", default: ""), try item.string("accessibility_label", default: "")))
        }
        var text = labels.first?.label ?? ""
        var tooltip = labels.map(\.label)
        if let doNotDisturb, case .bool(true)? = NotificationsText.entry(doNotDisturb)["on"] {
            var arrived: UInt32 = 0
            if case .uint32(let count)? = NotificationsText.entry(doNotDisturb)["arrived"] { arrived = count }
            text += (text.isEmpty ? "" : "  ") + "DND" + (arrived > 0 ? " \(arrived)" : "")
            tooltip.insert("Do not disturb: \(arrived) arrived", at: 0)
        }
        let fields: [(String, String)] = [
            ("text", text), ("tooltip", tooltip.joined(separator: "\n")),
            ("class", try state.string("presentation", default: "")), ("alt", labels.first?.module ?? ""),
        ]
        return "{" + fields.map { PlanJSON.json(.string($0.0)) + ": " + PlanJSON.json(.string($0.1)) }.joined(separator: ", ") + "}"
    }
}
