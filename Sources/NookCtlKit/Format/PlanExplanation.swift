import NookBus
import NookCore

/// `preview`'s multi-line account of a plan: where the chrome goes, each element that moves
/// and why, each one that does not (from the plan's diagnostics), and what the slots do.
public enum PlanExplanation {
    public static func text(_ plan: ReceivedPlan) -> String {
        var lines: [String] = []
        lines.append("plan #\(plan.serial) (\(plan.cause.rawValue))")
        lines.append("  " + PlanSummary.side(plan.from.rawValue, plan.fromContent) + " -> " + PlanSummary.side(plan.to.rawValue, plan.toContent))
        let chrome = plan.chrome
        lines.append("  chrome \(NumberText.rect(chrome.fromRect)) r\(NumberText.format(chrome.fromRadius)) -> "
                     + "\(NumberText.rect(chrome.toRect)) r\(NumberText.format(chrome.toRadius)) on " + CurveText.text(chrome.curve))
        lines += context(plan)

        lines.append("moves (\(plan.elements.count)):")
        if plan.elements.isEmpty { lines.append("  nothing") }
        for element in plan.elements { lines += move(element) }

        lines.append("stays still or notes (\(plan.diagnostics.count)):")
        if plan.diagnostics.isEmpty { lines.append("  nothing to report") }
        for diagnostic in plan.diagnostics {
            var place = diagnostic.module
            if !diagnostic.id.isEmpty { place += " id \(diagnostic.id)" }
            if !diagnostic.path.isEmpty { place += " at \(diagnostic.path)" }
            lines.append("  \(diagnostic.severity.rawValue) \(diagnostic.code.rawValue) [\(place)]: \(diagnostic.message)")
        }

        if !plan.layout.isEmpty {
            lines.append("layout (\(plan.layout.count)):")
            for change in plan.layout {
                lines.append("  \(change.change.rawValue) \(change.path) \(NumberText.rect(change.fromRect)) -> \(NumberText.rect(change.toRect))"
                             + " on \(CurveText.text(change.curve))")
            }
        }

        lines.append("slots (\(plan.slots.count)):")
        for slot in plan.slots {
            var line = "  \(slot.change.rawValue) \(slot.slot.rawValue) of \(slot.owner): "
            switch slot.change {
            case .appear: line += "fades in on " + CurveText.text(slot.curve)
            case .disappear: line += "fades out on " + CurveText.text(slot.curve)
            case .update: line += "changes content on " + CurveText.text(slot.curve)
            default: line += "stays"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// - Throws: `WireFieldError` naming the key NookCore's plan reader refuses.
    public static func text(_ plan: DBusValue) throws(WireFieldError) -> String { text(try ReceivedPlan(reply: plan)) }

    /// Plan-wide reasons that decide whether anything can move at all.
    static func context(_ plan: ReceivedPlan) -> [String] {
        var lines: [String] = []
        if plan.conversion == .viaHidden {
            lines.append("  the chrome dips through hidden: nothing on screen has a counterpart in the destination (rule 13)")
        } else if plan.cause == .open {
            lines.append("  the chrome converts directly (a hover, or a shared element on screen has a counterpart)")
        }
        if plan.freshWindow { lines.append("  a rebuilt window: elements arrive with their slots, nothing moves (rule 19)") }
        if plan.reduceMotion { lines.append("  Reduce Motion is on: nothing moves, slots only fade (rule 18)") }
        if plan.chrome.crossFade {
            lines.append("  the chrome dissolves from its old shape to its new one instead of morphing (rule 18)")
        }
        if plan.interrupts != 0 { lines.append("  interrupts plan #\(plan.interrupts): moves start from where things are now (rule 21)") }
        return lines
    }

    static func move(_ element: ElementMove) -> [String] {
        // Paths start with their slot (`expanded/0`); the slot alone when a plan gives no path.
        let fromPath = element.fromPath.isEmpty ? element.fromSlot.rawValue : element.fromPath
        let toPath = element.toPath.isEmpty ? element.toSlot.rawValue : element.toPath
        var lines = ["  \(element.key) (\(element.namespace.rawValue)): \(fromPath) \(NumberText.rect(element.fromRect)) -> \(toPath) \(NumberText.rect(element.toRect))"]
        var why = "one source on each side for this key, so it moves"
        why += element.style == .scale ? "; laid out once at its destination size and scaled" : "; laid out at every frame"
        why += element.clip == .chrome ? "; clipped to the chrome" : "; not clipped"
        lines.append("    why: " + why)
        lines.append("    curve: " + CurveText.text(element.curve))
        if element.crossFade { lines.append("    the two views differ: they cross-fade inside the moving frame") }
        if element.hideSource { lines.append("    the copy staying in the pill hides until this one lands back") }
        if element.properties != .frame { lines.append("    matches its \(element.properties.rawValue) only (anchor \(element.anchor.rawValue))") }
        if let v = element.velocity {
            lines.append("    starts moving at \(NumberText.rect(Rect(x: v.x, y: v.y, width: v.width, height: v.height))) pt/s")
        }
        return lines
    }
}
