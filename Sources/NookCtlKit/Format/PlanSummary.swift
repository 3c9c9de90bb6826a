import NookBus
import NookCore

/// One readable line per plan, for `watch`:
///
/// `#12 open (+content_changed): pill "activity:music/song" -> expanded "home:music" direct; moves
/// music/cover.song (marked "cover") (96,6,20,20)->(520,60,156,156); diagnostics no-counterpart`
public enum PlanSummary {
    public static func line(_ plan: ReceivedPlan) -> String {
        // A frame's plan names its last change `cause`, and `causes` every kind it covers,
        // `cause` included: the line adds the others.
        var text = "#\(plan.serial) \(plan.cause.rawValue)"
        let others = plan.causes.filter { $0 != plan.cause }
        if !others.isEmpty { text += " (+" + others.map(\.rawValue).joined(separator: ", +") + ")" }
        text += ": " + side(plan.from.rawValue, plan.fromContent) + " -> " + side(plan.to.rawValue, plan.toContent)
        text += " " + plan.conversion.rawValue
        if plan.interrupts != 0 { text += ", interrupts #\(plan.interrupts)" }
        if plan.freshWindow { text += ", fresh window" }
        if plan.reduceMotion { text += ", reduce motion" }
        let moves = plan.elements.map { $0.key + written($0) + " " + NumberText.rect($0.fromRect) + "->" + NumberText.rect($0.toRect) }
        text += "; moves " + (moves.isEmpty ? "nothing" : moves.joined(separator: ", "))
        if !plan.layout.isEmpty { text += "; layout " + plan.layout.map { $0.change.rawValue + " " + $0.path }.joined(separator: ", ") }
        if !plan.diagnostics.isEmpty { text += "; diagnostics " + plan.diagnostics.map(\.code.rawValue).joined(separator: ", ") }
        return text
    }

    /// A plan NookCore's reader refuses gives `unreadable plan: <key>: <why>`.
    public static func line(_ plan: DBusValue) -> String {
        do { return line(try ReceivedPlan(reply: plan)) } catch { return "unreadable plan: \(error)" }
    }

    /// ` (marked "icon")` when the key is not the module's mark as written: rule 8 suffixed it
    /// with the activity (`build/icon.build`), which is where an author first meets that name.
    static func written(_ element: ElementMove) -> String {
        guard element.namespace == .nook, element.key != element.module + "/" + element.id else { return "" }
        return " (marked \"" + element.id + "\")"
    }

    static func side(_ presentation: String, _ content: String) -> String {
        content.isEmpty ? presentation : presentation + " \"" + content + "\""
    }
}
