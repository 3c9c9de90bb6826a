import NookBus
import NookCore
import NookRenderModel

/// The renderer's side of the contract: subscribes, receives plans, and sends pointer,
/// open and display-change calls. Runs on NookBus's thread; whatever it hands the GTK side
/// goes through `onPlan`, which posts to the GTK main loop.
actor BrokerLink {
    static let busName = NookNames.busName

    private let connection: BusConnection
    private let render: NookRenderProxy
    private let control: NookControlProxy
    private var display: MonitorInfo
    /// The number of the newest display taken (`displayChanged`); 0: the one the link was made with.
    private var displayNumber: UInt64 = 0
    /// A `DisplayChanged` call is in flight; `displayChanged` sends the newest when it returns.
    private var declaringDisplay = false
    private let onPlan: @Sendable (IncomingPlan, String) -> Void
    private var subscriptions = 0
    private var resubscribing = false
    /// What the broker's `ReduceMotion` should be (from the config or the desktop); set
    /// before every `Subscribe`, so a new nookd gets it too, and whenever it changes.
    private var reduceMotion: Bool?

    /// - Parameter onPlan: each plan (`a{sv}`) and where it came from (`subscribe`, `signal`,
    ///   `display_changed`); called on the bus thread.
    /// - Parameter onFocus: `Render.FocusRequested` arrived (`nookctl focus`); called on the bus thread.
    init(connection: BusConnection, display: MonitorInfo, reduceMotion: Bool?, onFocus: @escaping @Sendable () -> Void = {},
         onPlan: @escaping @Sendable (IncomingPlan, String) -> Void) {
        self.connection = connection
        self.render = NookRenderProxy(connection)
        self.control = NookControlProxy(connection)
        self.display = display
        self.reduceMotion = reduceMotion
        self.onFocus = onFocus
        self.onPlan = onPlan
    }

    private let onFocus: @Sendable () -> Void

    /// Listens for plans and for the broker's comings and goings, subscribes, and runs until
    /// the bus connection closes. Every new owner of `org.nook.Nook1` (nookd restarted) gets a
    /// fresh subscription.
    func run() async throws {
        let onPlan = self.onPlan
        // Read straight into the contract's values: no `DBusValue` tree for each plan.
        _ = try await render.subscribeReadingProps(to: NookContract.Render.plan) { plan in
            onPlan(.signal(plan), "signal")
        }
        let onFocus = self.onFocus
        _ = try await render.onFocusRequested { _ in onFocus() }
        let owners = try await connection.nameOwnerChanges(of: Self.busName)
        await subscribe()
        for await change in owners {
            if change.newOwner.isEmpty {
                Log.info("nookd left the bus (\(change.oldOwner)); waiting for it to come back")
            } else {
                Log.info("org.nook.Nook1 has a new owner (\(change.newOwner)); subscribing again")
                await subscribe()
            }
        }
    }

    /// `Render.Subscribe` with the current display; a broker not there yet is waited for.
    private func subscribe() async {
        // Before Subscribe, so its fresh-window plan already honours it.
        await sendReduceMotion()
        do {
            let reply = try await render.subscribe(display: display.subscription)
            subscriptions += 1
            Log.info("subscribed (\(subscriptions)) as \(reply.handle) with display \(Int(display.geometry.width))x\(Int(display.geometry.height)) @\(display.scale)x \(display.refreshRate) Hz")
            onPlan(.reply(.vardict(reply.plan)), "subscribe")
        } catch {
            Log.info("Subscribe failed (\(error)); waiting for nookd on the bus")
        }
    }

    /// Subscribes again for a whole scene (after a `scene_delta` this renderer cannot apply).
    /// Every delta after a missed plan fails the same way: one new subscription serves them all.
    func subscribeAgain() async {
        guard !resubscribing else { return }
        resubscribing = true
        Log.info("a plan edits a scene this renderer does not hold; subscribing again for the whole scene")
        await subscribe()
        resubscribing = false
    }

    /// Sets the broker's `ReduceMotion` now and after every later subscription.
    func setReduceMotion(_ on: Bool) async {
        reduceMotion = on
        await sendReduceMotion()
    }

    /// `Properties.Set(Control, ReduceMotion, on)`; a broker not there yet gets it on Subscribe.
    private func sendReduceMotion() async {
        guard let on = reduceMotion else { return }
        do {
            try await control.setReduceMotion(on)
            Log.info("reduce motion set to \(on)")
        } catch {
            Log.info("cannot set ReduceMotion to \(on) (\(error)); trying again when nookd subscribes us")
        }
    }

    /// The relevance of `key` (`<module>/<activity>`) from `Control.GetState`'s `items`; nil
    /// when the broker does not list it (or cannot be asked).
    func relevance(of key: String) async -> Double? {
        do {
            guard case .array(_, let items)? = try await control.getState()["items"] else { return nil }
            for case let item in items {
                guard let fields = try? Vardict(item), case .string(let module)? = fields["module"], case .string(let activity)? = fields["activity"],
                      "\(module)/\(activity)" == key else { continue }
                if case .double(let relevance)? = fields["relevance"] { return relevance }
            }
            return nil
        } catch {
            Log.info("GetState failed: \(error)")
            return nil
        }
    }

    /// `Render.Pointer("enter" | "exit")`.
    func pointer(_ event: String) async {
        await send("Pointer(\(event))", sent: "pointer \(event) sent") { try await render.pointer(event: event) }
    }

    /// `Control.Open({})`: a click on the pill opens onto the default content.
    func open() async {
        await send("Open", sent: "open sent") { try await control.open(options: [:]) }
    }

    /// `Render.OpenSlot(target)` (an addition): the pointer came over (`hover`) or clicked
    /// (`claim`) a capsule, the pill, a peek or a board tile. A slot gone meanwhile
    /// (`UnknownTarget`) or one with nothing to open is logged and ignored.
    func openSlot(_ target: ReachTarget, via: OpenVia) async {
        await send(
            "OpenSlot(\(target.slot) \(target.owner) via \(via.rawValue))",
            sent: "open slot sent \(target.kind.rawValue) \(target.slot) \(target.owner) via=\(via.rawValue) serial=\(target.serial)"
        ) { try await render.openSlot(target: target.openSlotArgument(via: via).mapValues(\.wireValue)) }
    }

    /// `Control.EndActivity(module, activity, {})`: the person ended an activity by hand (the
    /// close control, a middle click), exactly as `nookctl end` does: the module hears
    /// `activity-dismissed`, and the same id cannot start again.
    func endActivity(module: String, activity: String) async {
        await send("EndActivity(\(module)/\(activity))", sent: "end activity sent \(module)/\(activity)") {
            try await control.endActivity(module: module, activity: activity, options: [:])
        }
    }

    /// `Render.Activate(target)`: a control was pressed (or activated from the keyboard). A
    /// node that went away meanwhile gets `UnknownTarget`: logged and ignored, the next plan
    /// shows what is there now.
    func activate(_ target: ControlTarget, action: String) async {
        do {
            try await render.activate(target: target.activateArgument.mapValues(\.wireValue))
            Log.debug("activate sent action=\(action) serial=\(target.serial) path=\(target.node.path)")
        } catch let error as DBusError where error.name == NookErrorName.unknownTarget.rawValue {
            Log.info("activate \(action) at \(target.node.path) (serial \(target.serial)): the node is gone (\(error.message)); ignored")
        } catch {
            Log.info("Activate(\(action) at \(target.node.path)) failed: \(error)")
        }
    }

    /// `Control.Close({})`: Escape in the expanded nook. The renderer has no other way to ask
    /// for the pill back; the broker's plan does the rest.
    func close() async {
        await send("Close", sent: "close sent") { try await control.close(options: [:]) }
    }

    /// One call whose reply needs no handling: `sent` is logged (debug) when it returns, and a
    /// failure is logged and otherwise ignored, as the next plan shows what the broker holds.
    private func send(_ call: @autoclosure () -> String, sent: @autoclosure () -> String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Log.debug(sent())
        } catch {
            Log.info("\(call()) failed: \(error)")
        }
    }

    /// `Control.DisplayChanged` with the new monitor; its plan arrives as a `Plan` signal too,
    /// so the reply (a serial) needs no handling.
    ///
    /// The broker must end up with the newest display, whatever order these calls' tasks reach
    /// the link in (a resolution change declares several within milliseconds):
    /// - Parameter number: the renderer numbers the displays it declares, newest highest; one
    ///   older than a display already taken is dropped.
    ///
    /// One call is in flight at a time: a display taken meanwhile is sent when it returns, the
    /// newest only, so the last call the broker reads always carries the newest display.
    func displayChanged(_ monitor: MonitorInfo, number: UInt64) async {
        guard number > displayNumber else {
            Log.debug("display \(Int(monitor.geometry.width))x\(Int(monitor.geometry.height)) (declaration \(number)) is older than declaration \(displayNumber); not sent")
            return
        }
        displayNumber = number
        display = monitor
        guard !declaringDisplay else { return }
        declaringDisplay = true
        defer { declaringDisplay = false }
        var sent: UInt64 = 0
        while sent < displayNumber {
            sent = displayNumber
            let monitor = display
            do {
                try await control.displayChanged(display: monitor.displayRecord)
                Log.info("display changed to \(Int(monitor.geometry.width))x\(Int(monitor.geometry.height)) @\(monitor.scale)x \(monitor.refreshRate) Hz (\(monitor.name))")
            } catch {
                Log.info("DisplayChanged failed: \(error)")
            }
        }
    }
}

/// A plan as it reached the renderer: a `Plan` signal's argument read straight into the
/// contract's values (or the error reading it), or the `Subscribe` reply's, as D-Bus values.
enum IncomingPlan: Sendable {
    case signal(Result<PropValue, WireDecodingError>)
    case reply(DBusValue)

    /// The plan as the contract's values; an argument that has none throws, naming where.
    func contractValue() throws(RenderPlanError) -> PropValue {
        let read: Result<PropValue, WireDecodingError>
        switch self {
        case .signal(let plan): read = plan
        case .reply(let value): read = Result { () throws(WireDecodingError) in try PropValue(wire: value, at: "") }
        }
        switch read {
        case .success(let value): return value
        case .failure(let error): throw RenderPlanError(key: error.path.isEmpty ? "(argument)" : error.path, message: error.message)
        }
    }

    /// The plan's `--verbose` line (`PlanSummary`, which reads D-Bus values).
    func summary(source: String, chrome: (from: Rect, to: Rect)? = nil) -> String {
        switch self {
        case .signal(.success(let value)): PlanSummary.line(value.wireValue, source: source, chrome: chrome)
        case .signal(.failure(let error)): "plan (unreadable: \(error)) from \(source)"
        case .reply(let value): PlanSummary.line(value, source: source, chrome: chrome)
        }
    }
}
