import NookBus
import NookCore

/// One line per plan for `--verbose`: serial, cause, presentations, the chrome's rects (and
/// whether it dissolves), each moving shared element's rects, and each board tile's cell. Tests read these lines; nothing else depends on them.
enum PlanSummary {
    /// - Parameter chrome: the chrome's rects as the presenter read them, when it did.
    static func line(_ plan: DBusValue, source: String, chrome read: (from: Rect, to: Rect)? = nil) -> String {
        guard let record = try? Vardict(plan, at: "plan") else { return "plan (not an a{sv}: \(plan.signature)) from \(source)" }
        var line = "plan serial=\(number(record["serial"])) cause=\(text(record["cause"])) from=\(text(record["from"]))"
            + " to=\(text(record["to"])) reduce_motion=\(text(record["reduce_motion"])) fresh_window=\(text(record["fresh_window"])) via=\(source)"
        if let value = record["chrome"]?.unwrappingVariants, let chrome = try? Vardict(value, at: "chrome") {
            let from = read.map { rect($0.from) } ?? rect(chrome["from_rect"])
            let to = read.map { rect($0.to) } ?? rect(chrome["to_rect"])
            line += " chrome_from=\(from) chrome_to=\(to)"
                + " chrome_cross_fade=\(text(chrome["cross_fade"]))"
        }
        if case .array(_, let elements)? = record["elements"]?.unwrappingVariants {
            for element in elements {
                guard let fields = try? Vardict(element, at: "element") else { continue }
                line += " element=\(text(fields["key"])) from_rect=\(rect(fields["from_rect"])) to_rect=\(rect(fields["to_rect"]))"
            }
        }
        // Each board tile's cell (`board_cells`), as `cell=owner@x,y,w,h`.
        if case .array(_, let cells)? = record["board_cells"]?.unwrappingVariants {
            for cell in cells {
                guard let fields = try? Vardict(cell, at: "board_cells") else { continue }
                line += " cell=\(text(fields["owner"]))@\(rect(fields["rect"]))"
            }
        }
        return line
    }

    private static func text(_ value: DBusValue?) -> String {
        switch value?.unwrappingVariants {
        case .string(let s)?: s.isEmpty ? "-" : s
        case .bool(let b)?: String(b)
        case nil: "-"
        case let other?: "\(other)"
        }
    }

    private static func number(_ value: DBusValue?) -> String {
        if case .uint64(let n)? = value?.unwrappingVariants { return String(n) }
        return text(value)
    }

    static func rect(_ value: DBusValue?) -> String {
        guard case .structure(let fields)? = value?.unwrappingVariants else { return "-" }
        return fields.map { field -> String in
            if case .double(let d) = field { return format(d) }
            return "?"
        }.joined(separator: ",")
    }

    static func rect(_ rect: Rect) -> String {
        [rect.x, rect.y, rect.width, rect.height].map(format).joined(separator: ",")
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
