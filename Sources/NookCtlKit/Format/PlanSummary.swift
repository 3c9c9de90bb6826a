import NookBus

/// One readable line per plan, for `watch`:
///
/// `#12 open (+content_changed): pill "activity:music/song" -> expanded "home:music" direct; moves music/cover
/// (96,6,20,20)->(520,60,156,156); diagnostics no-counterpart`
public enum PlanSummary {
    public static func line(_ plan: WireRecord) -> String {
        // A frame's plan names its last change `cause` and the frame's other changes `causes`.
        let others = plan.strings("causes")
        var text = "#\(plan.uint("serial")) \(plan.string("cause"))"
        if !others.isEmpty { text += " (+" + others.joined(separator: ", +") + ")" }
        text += ": "
        text += side(plan.string("from"), plan.string("from_content")) + " -> " + side(plan.string("to"), plan.string("to_content"))
        text += " " + (plan.string("conversion").isEmpty ? "direct" : plan.string("conversion"))
        let interrupts = plan.uint("interrupts")
        if interrupts != 0 { text += ", interrupts #\(interrupts)" }
        if plan.bool("fresh_window") { text += ", fresh window" }
        if plan.bool("reduce_motion") { text += ", reduce motion" }
        let moves = plan.records("elements").map { element in
            let from = element.rect("from_rect").map(NumberText.rect) ?? "?"
            let to = element.rect("to_rect").map(NumberText.rect) ?? "?"
            return element.string("key") + " " + from + "->" + to
        }
        text += "; moves " + (moves.isEmpty ? "nothing" : moves.joined(separator: ", "))
        let layout = plan.records("layout")
        if !layout.isEmpty {
            let changes = layout.map { $0.string("change") + " " + $0.string("path") }
            text += "; layout " + changes.joined(separator: ", ")
        }
        let codes = plan.records("diagnostics").map { $0.string("code") }
        if !codes.isEmpty { text += "; diagnostics " + codes.joined(separator: ", ") }
        return text
    }

    public static func line(_ plan: DBusValue) -> String { line(WireRecord(plan)) }

    static func side(_ presentation: String, _ content: String) -> String {
        let presentation = presentation.isEmpty ? "-" : presentation
        return content.isEmpty ? presentation : presentation + " \"" + content + "\""
    }
}
