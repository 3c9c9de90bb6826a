import NookBus
import NookCore

extension Broker {
    /// What `nookd` exports at `/org/nook/Nook1` so far: all of `Modules`, and of `Control`
    /// the read-only `GetState` (the rest of Control and Render come with the planner).
    nonisolated var interfaces: [DBusInterface] { [modulesInterface, controlInterface] }

    /// `org.nook.Nook1.Modules`, member for member as CONTRACT.md lists it.
    nonisolated var modulesInterface: DBusInterface {
        func arg(_ name: String, _ signature: Signature) -> DBusArgument { DBusArgument(name, signature) }
        return DBusInterface(
            NookContract.modulesInterface,
            methods: [
                DBusMethod("Register", in: [arg("module", "s"), arg("info", "a{sv}")]) { [self] call in
                    try assumeIsolated { try $0.handleRegister(call) }
                },
                DBusMethod("Unregister") { [self] call in
                    try assumeIsolated { try $0.handleUnregister(call) }
                },
                DBusMethod("SetContent", in: [arg("slot", "s"), arg("view", "(sa{sv}av)")]) { [self] call in
                    try assumeIsolated { try $0.handleSetContent(call) }
                },
                DBusMethod("ClearContent", in: [arg("slot", "s")]) { [self] call in
                    try assumeIsolated { try $0.handleClearContent(call) }
                },
                DBusMethod("StartActivity", in: [arg("activity", "s"), arg("spec", "a{sv}")]) { [self] call in
                    try assumeIsolated { try $0.handleStartActivity(call) }
                },
                DBusMethod("UpdateActivity", in: [arg("activity", "s"), arg("changes", "a{sv}")]) { [self] call in
                    try assumeIsolated { try $0.handleUpdateActivity(call) }
                },
                DBusMethod("EndActivity", in: [arg("activity", "s"), arg("options", "a{sv}")]) { [self] call in
                    try assumeIsolated { try $0.handleEndActivity(call) }
                },
            ],
            signals: [DBusSignal("Diagnostics", [arg("diagnostics", "aa{sv}")])])
    }

    /// `org.nook.Nook1.Control`, so far only `GetState`.
    nonisolated var controlInterface: DBusInterface {
        DBusInterface(
            NookContract.controlInterface,
            methods: [
                DBusMethod("GetState", out: [DBusArgument("state", "a{sv}")]) { [self] _ in
                    assumeIsolated { $0.stateReply() }
                }
            ])
    }

    // MARK: Handlers (bus thread, isolated)

    func handleRegister(_ call: MethodCall) throws -> [DBusValue] {
        defer { release(call) }
        let module: String = try call.argument(0)
        let info = try decodeRecord(call.arguments[1], context: "Register \"\(module)\" info", viewKeys: [])
        try apply { registry, now throws(RegistryError) in
            try registry.register(module: module, info: info, caller: call.sender, now: now)
        }
        return []
    }

    func handleUnregister(_ call: MethodCall) throws -> [DBusValue] {
        try apply { registry, now throws(RegistryError) in try registry.unregister(caller: call.sender, now: now) }
        return []
    }

    func handleSetContent(_ call: MethodCall) throws -> [DBusValue] {
        defer { release(call) }
        let slot: String = try call.argument(0)
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
        defer { release(call) }
        let activity: String = try call.argument(0)
        let spec = try decodeRecord(call.arguments[1], context: "StartActivity \"\(activity)\" spec", viewKeys: Self.viewKeys)
        try apply { registry, now throws(RegistryError) in
            try registry.startActivity(activity, spec: spec, caller: call.sender, now: now)
        }
        return []
    }

    func handleUpdateActivity(_ call: MethodCall) throws -> [DBusValue] {
        defer { release(call) }
        let activity: String = try call.argument(0)
        let changes = try decodeRecord(call.arguments[1], context: "UpdateActivity \"\(activity)\" changes", viewKeys: Self.viewKeys)
        try apply { registry, now throws(RegistryError) in
            try registry.updateActivity(activity, changes: changes, caller: call.sender, now: now)
        }
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

    /// `GetState()`, as far as the registry knows it: without the presentation state machine
    /// the nook shows the pill whenever there is something to show, else nothing.
    func stateReply() -> [DBusValue] {
        let order = registry.displayOrder
        let compact = registry.compactContentModule
        let showing = !order.isEmpty || compact != nil
        return [
            .vardict([
                "presentation": .string(showing ? "pill" : "hidden"),
                "module": .string(order.first?.module ?? compact ?? ""),
                "activity": .string(order.first?.activity ?? ""),
                "activities": .array(element: "(ss)", order.map { .structure([.string($0.module), .string($0.activity)]) }),
                "reduce_motion": .bool(false),
                "serial": .uint64(0),
            ])
        ]
    }
}
