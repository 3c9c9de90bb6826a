import NookCore
/// One `SetContent(s slot, (sa{sv}av) view)` call.
public struct SetContent: Hashable, Sendable {
    public var slot: ModuleSlot
    /// The root node; `animate: false` rides on its props.
    public var view: ViewNode
    /// The closures of the controls in `view`, by action id (compared by id only).
    var actions = ViewActions()

    public init(slot: ModuleSlot, view: ViewNode) {
        self.slot = slot
        self.view = view
    }

    init(slot: ModuleSlot, view: ViewNode, actions: ViewActions) {
        self.slot = slot
        self.view = view
        self.actions = actions
    }

    /// The view in wire shape, as the codec sends it.
    public var rawView: RawNode { view.rawNode }

    /// Checks the view as the broker will, so a mistake shows up in the module, with its path.
    public func validated(limits: ViewLimits = .standard) throws(ViewValidationError) -> (root: ViewNode, diagnostics: [Diagnostic]) {
        // Most views pass as they are (validating their wire form gives them back); only one
        // that does not is turned into its wire form, for the validator's words.
        var check = OnePassView(limits: limits)
        if check.passes(view) { return (view, []) }
        return try ViewValidator(limits: limits).validate(rawView, slot: slot.rawValue)
    }
}
