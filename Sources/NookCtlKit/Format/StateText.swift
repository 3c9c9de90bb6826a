import NookBus

/// `status`, `activities` and `modules` output from `GetState`'s `a{sv}`.
public enum StateText {
    /// `(module, activity)` pairs of `activities` `a(ss)`, in display order.
    public static func activities(_ state: WireRecord) -> [(module: String, activity: String)] {
        guard case .array(_, let items)? = state["activities"] else { return [] }
        return items.compactMap { item in
            guard case .structure(let fields) = item.unwrappingVariants, fields.count == 2,
                  case .string(let module) = fields[0], case .string(let activity) = fields[1] else { return nil }
            return (module, activity)
        }
    }

    public static func status(_ state: WireRecord) -> String {
        let module = state.string("module")
        let activity = state.string("activity")
        let focus = module.isEmpty ? "-" : (activity.isEmpty ? module : module + "/" + activity)
        let list = activities(state)
        var lines = [
            "presentation   " + (state.string("presentation").isEmpty ? "-" : state.string("presentation")),
            "focus          " + focus,
            "serial         \(state.uint("serial"))",
            "reduce motion  " + (state.bool("reduce_motion") ? "on" : "off"),
            "activities     \(list.count)",
        ]
        for (index, entry) in list.enumerated() { lines.append("  \(index + 1). \(entry.module)/\(entry.activity)") }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func activityList(_ state: WireRecord) -> String {
        activities(state).map { "\($0.module)/\($0.activity)\n" }.joined()
    }

    /// The modules GetState names: its `modules` (`as`, an addition some brokers make) when
    /// present, else the modules of the live activities, first appearance first.
    public static func moduleList(_ state: WireRecord) -> String {
        var names: [String] = []
        if case .array(_, let items)? = state["modules"] {
            // Contract 1.1: one a{sv} per registered module, `module` its id.
            names = items.compactMap { item in
                guard case .string(let name)? = WireRecord(item)["module"]?.unwrappingVariants else { return nil }
                return name
            }
        } else {
            for entry in activities(state) where !names.contains(entry.module) { names.append(entry.module) }
        }
        return names.map { $0 + "\n" }.joined()
    }

    /// `theme show`: one `path = value` line per token, sorted by path, values as JSON.
    public static func tokens(_ tokens: WireRecord) -> String {
        tokens.values.keys.sorted().map { "\($0) = \(PlanJSON.json(tokens.values[$0]!))\n" }.joined()
    }

    /// `status` in `format`: text as `status` prints it, or one line of JSON (the state as
    /// `GetState` returns it, or Waybar's custom-module object).
    public static func formatted(_ state: WireRecord, as format: StatusFormat, value: DBusValue) -> String {
        switch format {
        case .text: status(state)
        case .json: PlanJSON.json(value) + "\n"
        case .waybar: waybar(state) + "\n"
        }
    }

    /// Waybar's `return-type: json` object: `text` the primary activity's label, `tooltip`
    /// every activity's label, `class` the presentation, `alt` the primary activity's module.
    public static func waybar(_ state: WireRecord) -> String {
        var labels: [(module: String, label: String)] = []
        if case .array(_, let items)? = state["items"] {
            for item in items {
                let record = WireRecord(item)
                labels.append((record.string("module"), record.string("accessibility_label")))
            }
        }
        let fields: [(String, String)] = [
            ("text", labels.first?.label ?? ""), ("tooltip", labels.map(\.label).joined(separator: "\n")),
            ("class", state.string("presentation")), ("alt", labels.first?.module ?? ""),
        ]
        return "{" + fields.map { PlanJSON.json(.string($0.0)) + ": " + PlanJSON.json(.string($0.1)) }.joined(separator: ", ") + "}"
    }
}
