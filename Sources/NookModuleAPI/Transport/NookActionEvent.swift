import NookCore
import NookBus

/// One press of a control, as the broker reports it (`Modules.ActionInvoked`).
public struct NookActionEvent: Hashable, Sendable {
    /// The activity whose view was pressed; `""` for the module's own views (home, widget...).
    public var activity: String
    /// The control's action id (explicit with `.actionID`, else derived from its place).
    public var action: String
    /// Who pressed: `.renderer` (a click, a key on screen) or `.control` (`Control.Invoke`, a script).
    public var source: Source
    /// The slot the control was pressed in (`expanded`, `home`, ...).
    public var slot: String
    /// The nook's presentation at the press (`expanded`, `pill`, ...).
    public var presentation: String

    public enum Source: String, Hashable, Sendable {
        case renderer, control, unknown
    }

    public init(activity: String, action: String, source: Source, slot: String, presentation: String) {
        self.activity = activity
        self.action = action
        self.source = source
        self.slot = slot
        self.presentation = presentation
    }

    /// Reads an `ActionInvoked(s activity, s action, a{sv} info)` signal; nil when its
    /// arguments are not those.
    init?(signal: BusSignal) {
        guard signal.arguments.count == 3,
            let activity = try? decode(signal.arguments[0], as: String.self),
            let action = try? decode(signal.arguments[1], as: String.self),
            let info = try? WireCodec.dictionary(signal.arguments[2], at: "info")
        else { return nil }
        func string(_ key: String) -> String {
            if case .string(let value)? = info[key] { return value }
            return ""
        }
        self.init(activity: activity, action: action, source: Source(rawValue: string("source")) ?? .unknown,
                  slot: string("slot"), presentation: string("presentation"))
    }
}
