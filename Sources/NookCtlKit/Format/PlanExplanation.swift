import NookBus

/// `preview`'s multi-line account of a plan: where the chrome goes, each element that moves
/// and why, each one that does not (from the plan's diagnostics), and what the slots do.
public enum PlanExplanation {
    public static func text(_ plan: WireRecord) -> String {
        var lines: [String] = []
        lines.append("plan #\(plan.uint("serial")) (\(plan.string("cause")))")
        lines.append("  " + PlanSummary.side(plan.string("from"), plan.string("from_content")) + " -> "
                     + PlanSummary.side(plan.string("to"), plan.string("to_content")))
        let chrome = plan.record("chrome")
        if let from = chrome.rect("from_rect"), let to = chrome.rect("to_rect") {
            lines.append("  chrome \(NumberText.rect(from)) r\(NumberText.format(chrome.double("from_radius") ?? 0)) -> "
                         + "\(NumberText.rect(to)) r\(NumberText.format(chrome.double("to_radius") ?? 0)) on "
                         + WireCurve.text(chrome.record("curve")))
        }
        lines += context(plan)

        let elements = plan.records("elements")
        lines.append("moves (\(elements.count)):")
        if elements.isEmpty { lines.append("  nothing") }
        for element in elements { lines += move(element) }

        let diagnostics = plan.records("diagnostics")
        lines.append("stays still or notes (\(diagnostics.count)):")
        if diagnostics.isEmpty { lines.append("  nothing to report") }
        for diagnostic in diagnostics {
            var place = diagnostic.string("module")
            let id = diagnostic.string("id")
            if !id.isEmpty { place += " id \(id)" }
            let path = diagnostic.string("path")
            if !path.isEmpty { place += " at \(path)" }
            lines.append("  \(diagnostic.string("severity")) \(diagnostic.string("code")) [\(place)]: \(diagnostic.string("message"))")
        }

        let layout = plan.records("layout")
        if !layout.isEmpty {
            lines.append("layout (\(layout.count)):")
            for change in layout {
                let from = change.rect("from_rect").map(NumberText.rect) ?? "?"
                let to = change.rect("to_rect").map(NumberText.rect) ?? "?"
                lines.append("  \(change.string("change")) \(change.string("path")) \(from) -> \(to) on \(WireCurve.text(change.record("curve")))")
            }
        }

        let slots = plan.records("slots")
        lines.append("slots (\(slots.count)):")
        for slot in slots {
            var line = "  \(slot.string("change")) \(slot.string("slot")) of \(slot.string("owner")): \(slotVerb(slot.string("change")))"
            if ["appear", "disappear", "update"].contains(slot.string("change")) { line += " on " + WireCurve.text(slot.record("curve")) }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func text(_ plan: DBusValue) -> String { text(WireRecord(plan)) }

    /// Plan-wide reasons that decide whether anything can move at all.
    static func context(_ plan: WireRecord) -> [String] {
        var lines: [String] = []
        if plan.string("conversion") == "via_hidden" {
            lines.append("  the chrome dips through hidden: nothing on screen has a counterpart in the destination (rule 13)")
        } else if plan.string("conversion") == "direct", plan.string("cause") == "open" {
            lines.append("  the chrome converts directly (a hover, or a shared element on screen has a counterpart)")
        }
        if plan.bool("fresh_window") { lines.append("  a rebuilt window: elements arrive with their slots, nothing moves (rule 19)") }
        if plan.bool("reduce_motion") { lines.append("  Reduce Motion is on: nothing moves, slots only fade (rule 18)") }
        if plan.record("chrome").bool("cross_fade") {
            lines.append("  the chrome dissolves from its old shape to its new one instead of morphing (rule 18)")
        }
        let interrupts = plan.uint("interrupts")
        if interrupts != 0 { lines.append("  interrupts plan #\(interrupts): moves start from where things are now (rule 21)") }
        return lines
    }

    static func move(_ element: WireRecord) -> [String] {
        let from = element.rect("from_rect").map(NumberText.rect) ?? "?"
        let to = element.rect("to_rect").map(NumberText.rect) ?? "?"
        // Paths start with their slot (`expanded/0`); the slot alone when a plan gives no path.
        let fromPath = element.string("from_path").isEmpty ? element.string("from_slot") : element.string("from_path")
        let toPath = element.string("to_path").isEmpty ? element.string("to_slot") : element.string("to_path")
        var lines = ["  \(element.string("key")) (\(element.string("namespace"))): \(fromPath) \(from) -> \(toPath) \(to)"]
        var why = "one source on each side for this key, so it moves"
        why += element.string("style") == "scale" ? "; laid out once at its destination size and scaled" : "; laid out at every frame"
        why += element.string("clip") == "chrome" ? "; clipped to the chrome" : "; not clipped"
        lines.append("    why: " + why)
        lines.append("    curve: " + WireCurve.text(element.record("curve")))
        if element.bool("cross_fade") { lines.append("    the two views differ: they cross-fade inside the moving frame") }
        if element.bool("hide_source") { lines.append("    the copy staying in the pill hides until this one lands back") }
        let properties = element.string("properties")
        if !properties.isEmpty, properties != "frame" { lines.append("    matches its \(properties) only (anchor \(element.string("anchor")))") }
        if let velocity = element.rect("velocity") { lines.append("    starts moving at \(NumberText.rect(velocity)) pt/s") }
        return lines
    }

    static func slotVerb(_ change: String) -> String {
        switch change {
        case "appear": "fades in"
        case "disappear": "fades out"
        case "update": "changes content"
        default: "stays"
        }
    }
}
