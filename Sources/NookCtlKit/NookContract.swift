import NookBus

/// The names nookctl talks to, exactly as CONTRACT.md spells them.
public enum NookContract {
    public static let busName = "org.nook.Nook1"
    public static let objectPath: ObjectPath = "/org/nook/Nook1"
    public static let control = "org.nook.Nook1.Control"
    public static let render = "org.nook.Nook1.Render"
    public static let modules = "org.nook.Nook1.Modules"
    public static let properties = "org.freedesktop.DBus.Properties"
}

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
        ContractCall(NookContract.control, member, arguments, signature: signature, reply: reply)
    }

    public static let show = control("Show")
    public static let hide = control("Hide")
    public static let getState = control("GetState", reply: "a{sv}")
    public static let getTokens = control("GetTokens", reply: "a{sv}")
    /// An addition to contract v1.
    public static let reloadTheme = control("ReloadTheme")
    public static let endPeek = control("EndPeek", reply: "t")
    public static let closeCompanion = control("CloseCompanion", reply: "t")

    public static func open(_ options: [String: DBusValue]) -> ContractCall {
        control("Open", [.vardict(options)], signature: "a{sv}", reply: "t")
    }
    public static func close(_ options: [String: DBusValue] = [:]) -> ContractCall {
        control("Close", [.vardict(options)], signature: "a{sv}", reply: "t")
    }
    public static func peek(module: String, activity: String) -> ContractCall {
        control("Peek", [.string(module), .string(activity)], signature: "ss", reply: "t")
    }
    public static func openCompanion(_ module: String) -> ContractCall {
        control("OpenCompanion", [.string(module)], signature: "s", reply: "t")
    }
    public static func displayChanged(_ display: [String: DBusValue]) -> ContractCall {
        control("DisplayChanged", [.vardict(display)], signature: "a{sv}", reply: "t")
    }
    public static func previewPlan(_ action: String, _ options: [String: DBusValue]) -> ContractCall {
        control("PreviewPlan", [.string(action), .vardict(options)], signature: "sa{sv}", reply: "a{sv}")
    }
    public static func setTokens(_ tokens: [String: DBusValue]) -> ContractCall {
        control("SetTokens", [.vardict(tokens)], signature: "a{sv}")
    }
    public static func setSharedElementAnimation(_ which: String, _ curve: [String: DBusValue]) -> ContractCall {
        control("SetSharedElementAnimation", [.string(which), .vardict(curve)], signature: "sa{sv}")
    }
    public static func setReduceMotion(_ on: Bool) -> ContractCall {
        ContractCall(NookContract.properties, "Set", [.string(NookContract.control), .string("ReduceMotion"), .variant(.bool(on))],
                     signature: "ssv")
    }
    public static func subscribe(_ display: [String: DBusValue]) -> ContractCall {
        ContractCall(NookContract.render, "Subscribe", [.vardict(display)], signature: "a{sv}", reply: "oa{sv}")
    }
    public static let unsubscribe = ContractCall(NookContract.render, "Unsubscribe")
    /// `Control.EndActivity` (added to v1): ends any module's activity as the user.
    public static func endActivity(module: String, activity: String, dismissal: String) -> ContractCall {
        ContractCall(NookContract.control, "EndActivity", [.string(module), .string(activity), .vardict(["dismissal": .string(dismissal)])],
                     signature: "ssa{sv}")
    }
}
