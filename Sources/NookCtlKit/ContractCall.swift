import NookBus
import NookCore

/// One method call of the contract: which method (its interface, name and signatures come from
/// the introspection XML, `NookContract`) with which arguments; for help text and for tests
/// that pin what each verb sends.
public struct ContractCall: Hashable, Sendable, CustomStringConvertible {
    public var method: ContractMethod
    public var arguments: [DBusValue]

    public init(_ method: ContractMethod, _ arguments: [DBusValue] = []) {
        self.method = method
        self.arguments = arguments
    }

    public var interface: String { method.interface }
    public var member: String { method.name }
    /// The input signature the contract gives, e.g. `a{sv}`.
    public var signature: String { method.inputSignature }
    /// The reply signature, e.g. `t`; empty for `()`.
    public var replySignature: String { method.outputSignature }

    /// `org.nook.Nook1.Control.Open(a{sv}) -> t`.
    public var description: String { method.description }
}

extension ContractCall {
    private typealias Control = NookContract.Control

    public static let show = ContractCall(Control.show)
    public static let hide = ContractCall(Control.hide)
    public static let getState = ContractCall(Control.getState)
    public static let getTokens = ContractCall(Control.getTokens)
    /// An addition to contract v1.
    public static let reloadTheme = ContractCall(Control.reloadTheme)
    public static let endPeek = ContractCall(Control.endPeek)
    public static let closeCompanion = ContractCall(Control.closeCompanion)
    /// An addition: the nook takes the keyboard.
    public static let focus = ContractCall(Control.focus, [.vardict([:])])

    public static func open(_ options: [String: DBusValue]) -> ContractCall { ContractCall(Control.open, [.vardict(options)]) }
    public static func close(_ options: [String: DBusValue] = [:]) -> ContractCall { ContractCall(Control.close, [.vardict(options)]) }
    public static func peek(module: String, activity: String) -> ContractCall { ContractCall(Control.peek, [.string(module), .string(activity)]) }
    public static func openCompanion(_ module: String) -> ContractCall { ContractCall(Control.openCompanion, [.string(module)]) }
    public static func displayChanged(_ display: [String: DBusValue]) -> ContractCall { ContractCall(Control.displayChanged, [.vardict(display)]) }
    public static func previewPlan(_ action: String, _ options: [String: DBusValue]) -> ContractCall {
        ContractCall(Control.previewPlan, [.string(action), .vardict(options)])
    }
    public static func setTokens(_ tokens: [String: DBusValue]) -> ContractCall { ContractCall(Control.setTokens, [.vardict(tokens)]) }
    public static func setSharedElementAnimation(_ which: String, _ curve: [String: DBusValue]) -> ContractCall {
        ContractCall(Control.setSharedElementAnimation, [.string(which), .vardict(curve)])
    }
    public static func setReduceMotion(_ on: Bool) -> ContractCall {
        ContractCall(.propertiesSet, [.string(NookNames.controlInterface), .string(Control.reduceMotion.name), .variant(.bool(on))])
    }
    public static func subscribe(_ display: [String: DBusValue]) -> ContractCall { ContractCall(NookContract.Render.subscribe, [.vardict(display)]) }
    public static let unsubscribe = ContractCall(NookContract.Render.unsubscribe)
    /// `Control.EndActivity` (added to v1): ends any module's activity as the user.
    public static func endActivity(module: String, activity: String, dismissal: String) -> ContractCall {
        ContractCall(Control.endActivity, [.string(module), .string(activity), .vardict(["dismissal": .string(dismissal)])])
    }
}
