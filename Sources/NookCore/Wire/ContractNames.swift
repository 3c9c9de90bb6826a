/// The contract's D-Bus names (CONTRACT.md, `data/org.nook.Nook1.xml`), declared once for
/// nookd, the SDK, nookctl, nook-renderer and nook-notifications. `ContractNamesTests` checks
/// them against the introspection XML.
public enum NookNames {
    public static let busName = "org.nook.Nook1"
    public static let objectPath = "/org/nook/Nook1"
    public static let modulesInterface = "org.nook.Nook1.Modules"
    public static let controlInterface = "org.nook.Nook1.Control"
    public static let renderInterface = "org.nook.Nook1.Render"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
}

/// The methods and signals of `org.nook.Nook1.Modules`.
public enum ModulesMember: String, Hashable, Sendable, CaseIterable {
    case register = "Register", unregister = "Unregister", setContent = "SetContent", clearContent = "ClearContent"
    case startActivity = "StartActivity", updateActivity = "UpdateActivity", endActivity = "EndActivity"
    case diagnostics = "Diagnostics", actionInvoked = "ActionInvoked"
}

/// The methods, signals and properties of `org.nook.Nook1.Control`.
public enum ControlMember: String, Hashable, Sendable, CaseIterable {
    case show = "Show", hide = "Hide", open = "Open", close = "Close", peek = "Peek", endPeek = "EndPeek"
    case openCompanion = "OpenCompanion", closeCompanion = "CloseCompanion", displayChanged = "DisplayChanged"
    case endActivity = "EndActivity", invoke = "Invoke", getState = "GetState", previewPlan = "PreviewPlan"
    case setTokens = "SetTokens", getTokens = "GetTokens", reloadTheme = "ReloadTheme", stateChanged = "StateChanged"
    case setSharedElementAnimation = "SetSharedElementAnimation", reduceMotion = "ReduceMotion", presentation = "Presentation"
    /// An addition: a person asked for the keyboard in the nook (`nookctl focus`, bound to a key).
    case focus = "Focus"
}

/// The methods and signals of `org.nook.Nook1.Render`.
public enum RenderMember: String, Hashable, Sendable, CaseIterable {
    case subscribe = "Subscribe", unsubscribe = "Unsubscribe", pointer = "Pointer", activate = "Activate", plan = "Plan"
    /// An addition: open onto what a slot the renderer drew shows (a capsule, a pill slot, a board tile).
    case openSlot = "OpenSlot"
    /// An addition: the signal asking each renderer to take the keyboard (after `Control.Focus`).
    case focusRequested = "FocusRequested"
}

/// The D-Bus error names of the Nook contract (CONTRACT.md, "Errors"): the project's own
/// `org.nook.Nook1.Error.*` and the standard ones it uses where they fit.
public enum NookErrorName: String, Hashable, Sendable, CaseIterable {
    case invalidId = "org.nook.Nook1.Error.InvalidId"
    case notRegistered = "org.nook.Nook1.Error.NotRegistered"
    case moduleTaken = "org.nook.Nook1.Error.ModuleTaken"
    case unknownActivity = "org.nook.Nook1.Error.UnknownActivity"
    case activityExists = "org.nook.Nook1.Error.ActivityExists"
    case unknownModule = "org.nook.Nook1.Error.UnknownModule"
    case invalidView = "org.nook.Nook1.Error.InvalidView"
    case invalidTheme = "org.nook.Nook1.Error.InvalidTheme"
    /// An addition to contract v1: `StartActivity` of an id a person dismissed.
    case activityDismissed = "org.nook.Nook1.Error.ActivityDismissed"
    /// Contract 1.1 (Touch): `Activate`/`Invoke` name no node, or one that carries no action.
    case unknownTarget = "org.nook.Nook1.Error.UnknownTarget"
    case invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    case accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    case limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    case unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    /// Raised by the SDK, never sent by nookd: the bus could not be reached (connect failed,
    /// or the connection closed).
    case disconnected = "org.freedesktop.DBus.Error.Disconnected"
}

