import NookBus
import NookCore

/// One method call of the contract: which interface and member, with which arguments, and the
/// signatures both ways (for help text and for tests that pin what each verb sends).
public struct ContractCall: Hashable, Sendable, CustomStringConvertible {
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
    /// The input signature the contract gives, e.g. `a{sv}`.
    public var signature: String
    /// The reply signature, e.g. `t`; empty for `()`.
    public var replySignature: String

    public init(_ interface: String, _ member: String, _ arguments: [DBusValue] = [], signature: String = "", reply: String = "") {
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.signature = signature
        self.replySignature = reply
    }

    /// `org.nook.Nook1.Control.Open(a{sv}) -> t`.
    public var description: String {
        interface + "." + member + "(" + signature + ")" + (replySignature.isEmpty ? "" : " -> " + replySignature)
    }
}

extension ContractCall {
    static func control(_ member: String, _ arguments: [DBusValue] = [], signature: String = "", reply: String = "") -> ContractCall {
        ContractCall(NookNames.controlInterface, member, arguments, signature: signature, reply: reply)
    }

    public static let show = control(ControlMember.show.rawValue)
    public static let hide = control(ControlMember.hide.rawValue)
    public static let getState = control(ControlMember.getState.rawValue, reply: "a{sv}")
    public static let getTokens = control(ControlMember.getTokens.rawValue, reply: "a{sv}")
    /// An addition to contract v1.
    public static let reloadTheme = control(ControlMember.reloadTheme.rawValue)
    public static let endPeek = control(ControlMember.endPeek.rawValue, reply: "t")
    public static let closeCompanion = control(ControlMember.closeCompanion.rawValue, reply: "t")
    /// An addition: the nook takes the keyboard.
    public static let focus = control(ControlMember.focus.rawValue, [.vardict([:])], signature: "a{sv}", reply: "t")

    public static func open(_ options: [String: DBusValue]) -> ContractCall {
        control(ControlMember.open.rawValue, [.vardict(options)], signature: "a{sv}", reply: "t")
    }
    public static func close(_ options: [String: DBusValue] = [:]) -> ContractCall {
        control(ControlMember.close.rawValue, [.vardict(options)], signature: "a{sv}", reply: "t")
    }
    public static func peek(module: String, activity: String) -> ContractCall {
        control(ControlMember.peek.rawValue, [.string(module), .string(activity)], signature: "ss", reply: "t")
    }
    public static func openCompanion(_ module: String) -> ContractCall {
        control(ControlMember.openCompanion.rawValue, [.string(module)], signature: "s", reply: "t")
    }
    public static func displayChanged(_ display: [String: DBusValue]) -> ContractCall {
        control(ControlMember.displayChanged.rawValue, [.vardict(display)], signature: "a{sv}", reply: "t")
    }
    public static func previewPlan(_ action: String, _ options: [String: DBusValue]) -> ContractCall {
        control(ControlMember.previewPlan.rawValue, [.string(action), .vardict(options)], signature: "sa{sv}", reply: "a{sv}")
    }
    public static func setTokens(_ tokens: [String: DBusValue]) -> ContractCall {
        control(ControlMember.setTokens.rawValue, [.vardict(tokens)], signature: "a{sv}")
    }
    public static func setSharedElementAnimation(_ which: String, _ curve: [String: DBusValue]) -> ContractCall {
        control(ControlMember.setSharedElementAnimation.rawValue, [.string(which), .vardict(curve)], signature: "sa{sv}")
    }
    public static func setReduceMotion(_ on: Bool) -> ContractCall {
        ContractCall(NookNames.propertiesInterface, "Set", [.string(NookNames.controlInterface), .string(ControlMember.reduceMotion.rawValue), .variant(.bool(on))],
                     signature: "ssv")
    }
    public static func subscribe(_ display: [String: DBusValue]) -> ContractCall {
        ContractCall(NookNames.renderInterface, RenderMember.subscribe.rawValue, [.vardict(display)], signature: "a{sv}", reply: "oa{sv}")
    }
    public static let unsubscribe = ContractCall(NookNames.renderInterface, RenderMember.unsubscribe.rawValue)
    /// `Control.EndActivity` (added to v1): ends any module's activity as the user.
    public static func endActivity(module: String, activity: String, dismissal: String) -> ContractCall {
        ContractCall(NookNames.controlInterface, ModulesMember.endActivity.rawValue, [.string(module), .string(activity), .vardict(["dismissal": .string(dismissal)])],
                     signature: "ssa{sv}")
    }
}
