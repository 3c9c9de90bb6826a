import NookCore

extension Registry {
    /// `SetContent(s slot, (sa{sv}av) view)`: a module-level view. The view's root may carry
    /// `animate` b (false: no animation), which travels with the scene change.
    public mutating func setContent(slot name: String, view raw: RawNode, caller: String, now: BrokerTime)
        throws(RegistryError) -> [RegistryAction]
    {
        try setContent(slot: name, .raw(raw), caller: caller)
    }

    /// `setContent` of a view NookBus already read and validated (`MethodCall.viewArguments`).
    public mutating func setContent(slot name: String, read view: ReadView, caller: String, now: BrokerTime)
        throws(RegistryError) -> [RegistryAction]
    {
        try setContent(slot: name, .read(view), caller: caller)
    }

    /// A content view as it came: to validate, or validated as it was read.
    private enum ContentView {
        case raw(RawNode)
        case read(ReadView)
    }

    private mutating func setContent(slot name: String, _ given: ContentView, caller: String) throws(RegistryError) -> [RegistryAction] {
        let moduleId = try ownModule(caller: caller, named: nil)
        let slot = try Self.moduleSlot(name)
        let bytes = switch given {
        case .raw(let raw): raw.estimatedWireBytes
        case .read(let read): read.wireBytes
        }
        if bytes > limits.maxPayloadBytes {
            throw RegistryError(.limitsExceeded, "SetContent \(InputQuote.text(name)): about \(bytes) bytes of payload (at most \(limits.maxPayloadBytes), maxPayloadBytes)")
        }
        var diagnostics: [Diagnostic] = []
        let context = "module \"\(moduleId)\" content"
        let owner = SlotOwner(module: moduleId)
        let rules = modules[moduleId]!.rules
        let view = switch given {
        case .raw(let raw): try validate(raw, slot: slot.rawValue, context: context, owner: owner, rules: rules, diagnostics: &diagnostics)
        case .read(let read): settle(read.root, slot: slot.rawValue, context: context, owner: owner, rules: rules, diagnostics: &diagnostics)
        }
        modules[moduleId]!.content[slot] = view
        if slot.isCompact { modules[moduleId]!.compactOrder = nextOrder() }
        var actions = deliver(diagnostics, module: moduleId)
        actions.append(.sceneChanged(SceneChange(cause: .contentChanged, module: moduleId, slot: slot, animate: view.props.animate ?? true)))
        actions.append(.persist)
        return actions
    }

    /// `ClearContent(s slot)`. Clearing an empty slot changes nothing.
    public mutating func clearContent(slot name: String, caller: String, now: BrokerTime) throws(RegistryError) -> [RegistryAction] {
        let moduleId = try ownModule(caller: caller, named: nil)
        let slot = try Self.moduleSlot(name)
        guard modules[moduleId]!.content.removeValue(forKey: slot) != nil else { return [] }
        let content = modules[moduleId]!.content
        if content[.compactLeading] == nil && content[.compactTrailing] == nil { modules[moduleId]!.compactOrder = nil }
        return [.sceneChanged(SceneChange(cause: .contentChanged, module: moduleId, slot: slot)), .persist]
    }

    static func moduleSlot(_ name: String) throws(RegistryError) -> ModuleSlot {
        guard let slot = ModuleSlot(rawValue: name) else {
            let allowed = ModuleSlot.allCases.map(\.rawValue).joined(separator: ", ")
            throw RegistryError(.invalidArgs, "slot \"\(InputQuote.text(name))\" is not a module slot (allowed: \(allowed))")
        }
        return slot
    }
}
