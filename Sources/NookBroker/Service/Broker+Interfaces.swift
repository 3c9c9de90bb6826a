import NookBus
import NookCore

extension Broker {
    /// What `nookd` exports at `/org/nook/Nook1`: the whole contract (data/org.nook.Nook1.xml).
    nonisolated var interfaces: [DBusInterface] { [modulesInterface, controlInterface, renderInterface] }

    /// `org.nook.Nook1.Modules`, member for member as CONTRACT.md lists it.
    nonisolated var modulesInterface: DBusInterface {
        DBusInterface(
            NookNames.modulesInterface,
            methods: [
                DBusMethod(NookContract.Modules.register) { [self] call in
                    try assumeIsolated { broker in
                        try broker.limited(ModulesMember.register.rawValue, caller: call.sender, refused: { broker.release(call) }) {
                            try broker.handleRegister(call)
                        }
                    }
                },
                DBusMethod(NookContract.Modules.unregister) { [self] call in
                    try assumeIsolated { try $0.handleUnregister(call) }
                },
                DBusMethod(NookContract.Modules.setContent) { [self] call in
                    try assumeIsolated { try $0.handleSetContent(call) }
                }.readingView(at: 1, limits: viewLimits),
                DBusMethod(NookContract.Modules.clearContent) { [self] call in
                    try assumeIsolated { try $0.handleClearContent(call) }
                },
                // Their slot views read straight into validated views when they pass the
                // one-pass checks (`MethodCall.views`); the rest, as nodes for the validator.
                DBusMethod(NookContract.Modules.startActivity) { [self] call in
                    try assumeIsolated { try $0.handleStartActivity(call) }
                }.readingProps(at: 1, views: slotViews),
                DBusMethod(NookContract.Modules.updateActivity) { [self] call in
                    try assumeIsolated { try $0.handleUpdateActivity(call) }
                }.readingProps(at: 1, views: slotViews),
                DBusMethod(NookContract.Modules.endActivity) { [self] call in
                    try assumeIsolated { try $0.handleEndActivity(call) }
                },
            ],
            signals: [
                NookContract.Modules.diagnostics.declaration,
                // Contract 1.1 (Touch): unicast to the owning module's connection only.
                NookContract.Modules.actionInvoked.declaration,
            ])
    }

    /// `org.nook.Nook1.Control`, member for member as CONTRACT.md lists it.
    nonisolated var controlInterface: DBusInterface {
        /// A Control method that applies an action and returns the serial of the plan it caused.
        func action(_ method: ContractMethod, _ make: @escaping @Sendable (MethodCall) throws -> ControlAction) -> DBusMethod {
            DBusMethod(method) { [self] call in
                let action = try make(call)
                return [.uint64(try assumeIsolated { broker in try broker.control(action) })]
            }
        }
        return DBusInterface(
            NookNames.controlInterface,
            methods: [
                DBusMethod(NookContract.Control.show) { [self] _ in try assumeIsolated { broker in _ = try broker.control(.show) }; return [] },
                DBusMethod(NookContract.Control.hide) { [self] _ in try assumeIsolated { broker in _ = try broker.control(.hide) }; return [] },
                action(NookContract.Control.open) { call in try Broker.openAction(try Self.record(call, 0, "Open options")) },
                action(NookContract.Control.close) { call in _ = try Self.record(call, 0, "Close options"); return .close },
                action(NookContract.Control.peek) { call in
                    .peek(ActivityRef(module: try call.argument(0), activity: try call.argument(1)))
                },
                action(NookContract.Control.endPeek) { _ in .endPeek },
                action(NookContract.Control.openCompanion) { call in .openCompanion(module: try call.argument(0)) },
                action(NookContract.Control.closeCompanion) { _ in .closeCompanion },
                DBusMethod(NookContract.Control.displayChanged) { [self] call in
                    let record = try Self.record(call, 0, "DisplayChanged display")
                    return [.uint64(try assumeIsolated { broker in try broker.displayChanged(call.sender, display: record) })]
                },
                // An addition to contract v1: lets a person (nookctl, a shell) dismiss any activity.
                DBusMethod(NookContract.Control.endActivity) { [self] call in
                    let ref = ActivityRef(module: try call.argument(0), activity: try call.argument(1))
                    let options = try Self.record(call, 2, "EndActivity options")
                    try assumeIsolated { broker in
                        try broker.apply { registry, now throws(RegistryError) in try registry.dismiss(ref, options: options, now: now) }
                    }
                    return []
                },
                // Contract 1.1 (Touch): a script presses a control (Broker+Touch.swift).
                DBusMethod(NookContract.Control.invoke) { [self] call in
                    let module: String = try call.argument(0)
                    let activity: String = try call.argument(1)
                    let action: String = try call.argument(2)
                    let options = try Self.record(call, 3, "Invoke options")
                    try assumeIsolated { broker in
                        try broker.invoke(call.sender, module: module, activity: activity, action: action, options: options)
                    }
                    return []
                },
                // An addition: the keyboard in the nook (Broker+Reach.swift).
                DBusMethod(NookContract.Control.focus) { [self] call in
                    _ = try Self.record(call, 0, "Focus options")
                    let serial = try assumeIsolated { broker in try broker.requestFocus(call.sender) }
                    return [.uint64(serial)]
                },
                DBusMethod(NookContract.Control.getState) { [self] _ in
                    assumeIsolated { $0.stateReply() }
                },
                DBusMethod(NookContract.Control.previewPlan) { [self] call in
                    let name: String = try call.argument(0)
                    let options = try Self.record(call, 1, "PreviewPlan options")
                    return try assumeIsolated { broker in
                        try broker.limited(ControlMember.previewPlan.rawValue, caller: call.sender) { try broker.preview(name, options: options) }
                    }
                },
                DBusMethod(NookContract.Control.setTokens) { [self] call in
                    let tokens = try Self.record(call, 0, "SetTokens tokens")
                    try assumeIsolated { broker in try broker.setTokens(tokens) }
                    return []
                },
                // An addition to contract v1: what SIGHUP does, with the outcome as the reply.
                DBusMethod(NookContract.Control.reloadTheme) { [self] _ in
                    try assumeIsolated { broker in _ = try broker.reloadTheme() }
                    return []
                },
                DBusMethod(NookContract.Control.getTokens) { [self] _ in
                    [assumeIsolated { WireCodec.vardict($0.settings.theme.wireTokens) }]
                },
                DBusMethod(NookContract.Control.setSharedElementAnimation) { [self] call in
                    let which: String = try call.argument(0)
                    let curve = try Broker.curveOverride(try Self.record(call, 1, "SetSharedElementAnimation curve"))
                    try assumeIsolated { broker in
                        switch which {
                        case "convert": broker.settings.sharedElementAnimation = curve
                        case "peek": broker.settings.sharedElementPeekAnimation = curve
                        default: throw DBusError(nook: .invalidArgs, "SetSharedElementAnimation: 'which' must be 'convert' or 'peek', got '\(which)'")
                        }
                        broker.schedulePersist()
                    }
                    return []
                },
            ],
            // Contract 1.1: what GetState returns, broadcast at most once per 50 ms while it changes.
            signals: [NookContract.Control.stateChanged.declaration],
            properties: [
                DBusProperty(NookContract.Control.reduceMotion, emitsOnSet: false, get: { [self] in assumeIsolated { .bool($0.settings.reduceMotion) } },
                             set: { [self] value in
                                 guard case .bool(let on) = value else { return }
                                 assumeIsolated { $0.setReduceMotion(on) }
                             }),
                DBusProperty(NookContract.Control.presentation, get: { [self] in assumeIsolated { .string($0.machine.state.presentation.rawValue) } }),
            ])
    }

    /// `org.nook.Nook1.Render`, member for member as CONTRACT.md lists it.
    nonisolated var renderInterface: DBusInterface {
        DBusInterface(
            NookNames.renderInterface,
            methods: [
                // Replies first: the ping that says the renderer read the reply goes after it.
                DBusMethod.replyingFirst(NookContract.Render.subscribe) { [self] call in
                    let record = try Self.record(call, 0, "Subscribe display")
                    let reply = try assumeIsolated { broker in
                        try broker.limited(RenderMember.subscribe.rawValue, caller: call.sender) {
                            try broker.subscribe(call.sender, display: record, expectsReply: call.expectsReply)
                        }
                    }
                    return (reply, { [self] in assumeIsolated { $0.subscribeReplied(call.sender) } })
                },
                DBusMethod(NookContract.Render.unsubscribe) { [self] call in
                    assumeIsolated { $0.unsubscribe(call.sender) }
                    return []
                },
                DBusMethod(NookContract.Render.pointer) { [self] call in
                    let event: String = try call.argument(0)
                    let action: ControlAction
                    switch event {
                    case "enter": action = .pointerEnter
                    case "exit": action = .pointerExit
                    default: throw DBusError(nook: .invalidArgs, "Pointer: event must be 'enter' or 'exit', got '\(event)'")
                    }
                    try assumeIsolated { broker in _ = try broker.control(action) }
                    return []
                },
                // Contract 1.1 (Touch): a renderer presses a control it drew (Broker+Touch.swift).
                DBusMethod(NookContract.Render.activate) { [self] call in
                    let target = try Self.record(call, 0, "Activate target")
                    try assumeIsolated { broker in try broker.activate(call.sender, target: target) }
                    return []
                },
                // An addition (every activity in reach): open onto what a slot drew (Broker+Reach.swift).
                DBusMethod(NookContract.Render.openSlot) { [self] call in
                    let target = try Self.record(call, 0, "OpenSlot target")
                    let serial = try assumeIsolated { broker in try broker.openSlot(call.sender, target: target) }
                    return [.uint64(serial)]
                },
            ],
            signals: [NookContract.Render.plan.declaration, NookContract.Render.focusRequested.declaration])
    }

    /// Decodes an `a{sv}` argument of a Control or Render call, naming the offending key.
    nonisolated static func record(_ call: MethodCall, _ index: Int, _ context: String) throws(DBusError) -> [String: PropValue] {
        do { return try WireCodec.dictionary(call.arguments[index], at: "") } catch {
            throw DBusError(nook: .invalidArgs, "\(context): \(error.description)")
        }
    }

    // MARK: Handlers (bus thread, isolated)

    func handleRegister(_ call: MethodCall) throws -> [DBusValue] {
        defer { release(call) }
        let module: String = try call.argument(0)
        let info = try decodeRecord(call.arguments[1], context: "Register \"\(module)\" info", viewKeys: [])
        try apply { registry, now throws(RegistryError) in
            try registry.register(module: module, info: info, caller: call.sender, now: now)
        }
        refreshModuleThemes()
        return []
    }

    func handleUnregister(_ call: MethodCall) throws -> [DBusValue] {
        try apply { registry, now throws(RegistryError) in try registry.unregister(caller: call.sender, now: now) }
        return []
    }

    func handleSetContent(_ call: MethodCall) throws -> [DBusValue] {
        defer { release(call) }
        let slot: String = try call.argument(0)
        if let read = call.viewArguments[1] {
            try apply { registry, now throws(RegistryError) in try registry.setContent(slot: slot, read: read, caller: call.sender, now: now) }
            return []
        }
        let root = ModuleSlot(rawValue: slot) != nil ? slot : "view"
        let view: RawNode
        do { view = try RawNode(wire: call.arguments[1], at: root) } catch {
            throw DBusError(nook: .invalidView, "SetContent \(slot): \(error.description)")
        }
        try apply { registry, now throws(RegistryError) in
            try registry.setContent(slot: slot, view: view, caller: call.sender, now: now)
        }
        return []
    }

    func handleClearContent(_ call: MethodCall) throws -> [DBusValue] {
        let slot: String = try call.argument(0)
        try apply { registry, now throws(RegistryError) in try registry.clearContent(slot: slot, caller: call.sender, now: now) }
        return []
    }

    func handleStartActivity(_ call: MethodCall) throws -> [DBusValue] {
        try handleActivityCall(call, "StartActivity", record: "spec") { registry, activity, spec, views, now throws(RegistryError) in
            try registry.startActivity(activity, spec: spec, views: views, caller: call.sender, now: now)
        }
    }

    func handleUpdateActivity(_ call: MethodCall) throws -> [DBusValue] {
        try handleActivityCall(call, "UpdateActivity", record: "changes") { registry, activity, changes, views, now throws(RegistryError) in
            try registry.updateActivity(activity, changes: changes, views: views, caller: call.sender, now: now)
        }
    }

    /// `StartActivity` and `UpdateActivity`: the activity id, then its record as NookBus read it
    /// straight (with its views, `MethodCall.views`) or, when it could not, decoded here.
    private func handleActivityCall(
        _ call: MethodCall, _ member: String, record: String,
        _ body: (inout Registry, String, [String: PropValue], [String: ReadView], BrokerTime) throws(RegistryError) -> [RegistryAction]
    ) throws -> [DBusValue] {
        defer { release(call) }
        let activity: String = try call.argument(0)
        let fields = try call.props[1] ?? decodeRecord(call.arguments[1], context: "\(member) \"\(activity)\" \(record)", viewKeys: Self.viewKeys)
        let views = call.views[1] ?? [:]
        try apply { registry, now throws(RegistryError) in try body(&registry, activity, fields, views, now) }
        return []
    }

    func handleEndActivity(_ call: MethodCall) throws -> [DBusValue] {
        defer { release(call) }
        let activity: String = try call.argument(0)
        let options = try decodeRecord(call.arguments[1], context: "EndActivity \"\(activity)\" options", viewKeys: [])
        try apply { registry, now throws(RegistryError) in
            try registry.endActivity(activity, options: options, caller: call.sender, now: now)
        }
        return []
    }

    static let viewKeys: Set<String> = Set(ActivitySlot.allCases.map(\.rawValue))

    /// The slot keys of `StartActivity`'s spec and `UpdateActivity`'s changes, read under the
    /// registry's view limits.
    nonisolated var slotViews: ViewReading { ViewReading(keys: Self.viewKeys, limits: viewLimits) }

    /// Decodes an `a{sv}` argument; a value that cannot be a prop is `InvalidView` when it sits
    /// inside a view key, else `InvalidArgs`, naming its path either way.
    func decodeRecord(_ value: DBusValue, context: String, viewKeys: Set<String>) throws(DBusError) -> [String: PropValue] {
        do {
            return try WireCodec.dictionary(value, at: "")
        } catch {
            let root = String(error.path.prefix { $0 != "/" && $0 != "." })
            throw DBusError(nook: viewKeys.contains(root) ? .invalidView : .invalidArgs, "\(context): \(error.description)")
        }
    }

    /// Closes descriptors a client slipped into the arguments (reading duplicated them).
    func release(_ call: MethodCall) {
        for argument in call.arguments { argument.closeUnixFDs() }
    }

    /// `GetState()`: the presentation, what it shows, the activities in display order, and the
    /// additions (`items`, `modules`, `persistence`), as Broker+State.swift builds them for
    /// `StateChanged` too; and the plan counters `plans_made`, `plans_sent`, which change with
    /// every frame, so no broadcast carries them; and `persistence_pending`, which changes when
    /// a write ends, and no broadcast follows that either.
    func stateReply() -> [DBusValue] {
        var record = stateRecord()
        record["plans_made"] = .uint64(delivery.machine.plansMade)
        record["plans_sent"] = .uint64(delivery.machine.plansSent)
        record["persistence_pending"] = .bool(hasUnwrittenState)
        return [.vardict(record)]
    }
}
