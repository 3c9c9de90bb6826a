import CGtk
import NookCore
import NookRenderModel

/// The nook's controls as accessible objects (ATK, which GTK's at-spi bridge exports to
/// AT-SPI for Orca): one child of the window's accessible per control of the current scene,
/// role push button, named by the control's `action_label` (or the text inside), so a screen
/// reader says "Pause, button". Each has the AtkComponent extents of the control as drawn
/// and an AtkAction `click` that activates it, and reports focused while it has the
/// keyboard focus (with a `state-changed:focused` event when that moves). The close control
/// the renderer draws beside a peek or an expanded activity is one more push button, "Close",
/// described by the activity it ends, whose `click` ends it as a click on it does.
///
/// The nook is one drawn widget, so the objects are made here: a small AtkObject subclass
/// (`NookControlAccessible`) registered through the GObject C API, and the window
/// accessible's `get_n_children`/`ref_child` wrapped to append them after its own children.
/// Main thread only.
final class ControlAccessibility {
    /// What one object stands for.
    struct Entry {
        enum Subject {
            case control(SceneControl)
            /// The close control of `owner` (a `ReachTarget` of kind `close`).
            case close(ReachTarget)
        }
        var subject: Subject
        /// In window coordinates; zero until drawn.
        var rect: Rect = .zero

        var control: SceneControl? { if case .control(let control) = subject { control } else { nil } }
        var close: ReachTarget? { if case .close(let target) = subject { target } else { nil } }
        /// What makes two objects the same object for a screen reader: a control's node and
        /// name, or the activity a close control ends.
        var identity: String {
            switch subject {
            case .control(let control): "control \(control.node.path) \(control.label)"
            case .close(let target): "close \(target.owner)"
            }
        }
    }

    private let window: UnsafeMutablePointer<GtkWidget>
    private let windowAccessible: UnsafeMutablePointer<AtkObject>
    private(set) var objects: [UnsafeMutablePointer<AtkObject>] = []
    private var entries: [UnsafeMutableRawPointer: Entry] = [:]
    private var focused: ControlNode?
    /// Called when an assistive technology runs a control's `click` action.
    var onActivate: (SceneControl) -> Void = { _ in }
    /// Called when an assistive technology runs a close control's `click` action.
    var onClose: (ReachTarget) -> Void = { _ in }
    /// The controls of the current scene and the close controls last drawn.
    private var controls: [SceneControl] = []
    private var closes: [ReachTarget] = []

    init(window: UnsafeMutablePointer<GtkWidget>) {
        self.window = window
        windowAccessible = gtk_widget_get_accessible(window)
        ATKHooks.install(on: windowAccessible)
        ATKHooks.current = self
    }

    // MARK: Keeping up with the scene

    /// The current scene's controls changed (a plan arrived): the objects are made anew when
    /// the list differs, with `children-changed` events so AT-SPI clients refresh.
    func setControls(_ controls: [SceneControl]) {
        self.controls = controls
        rebuildIfChanged()
    }

    /// A frame was painted with these close controls (one beside a peek or an expanded
    /// activity a person may end; none otherwise).
    func setCloseControls(_ targets: [ReachTarget]) {
        closes = targets.filter { $0.kind == .close && $0.dismissible }
        rebuildIfChanged()
    }

    /// The objects are made anew only when what they stand for changed; otherwise each keeps
    /// its object and takes the fresher value (a newer serial is what Activate should name).
    private func rebuildIfChanged() {
        let wanted = controls.map { Entry(subject: .control($0)) } + closes.map { Entry(subject: .close($0)) }
        let current = objects.compactMap { entries[UnsafeMutableRawPointer($0)] }
        guard current.map(\.identity) != wanted.map(\.identity) else {
            for (object, fresh) in zip(objects, wanted) { entries[UnsafeMutableRawPointer(object)]?.subject = fresh.subject }
            return
        }
        let base = Int(ATKHooks.ownChildren(of: windowAccessible))
        for (index, object) in objects.enumerated().reversed() {
            ATKHooks.emitChildrenChanged(windowAccessible, "remove", index: base + index, child: object)
        }
        let old = objects
        objects = []
        entries = [:]
        for object in old { g_object_unref(UnsafeMutableRawPointer(object)) }
        for entry in wanted {
            let object = ATKHooks.makeControlObject()
            atk_object_set_role(object, ATK_ROLE_PUSH_BUTTON)
            switch entry.subject {
            case .control(let control):
                atk_object_set_name(object, control.label)
            case .close(let target):
                atk_object_set_name(object, "Close")
                atk_object_set_description(object, "Ends \(target.owner)")
            }
            atk_object_set_parent(object, windowAccessible)
            entries[UnsafeMutableRawPointer(object)] = entry
            objects.append(object)
        }
        for (index, object) in objects.enumerated() {
            ATKHooks.emitChildrenChanged(windowAccessible, "add", index: base + index, child: object)
        }
        Log.debug("accessible controls: " + (describe().isEmpty ? "none" : describe()))
    }

    /// A frame was painted: each object's extents follow its control as drawn, and focus
    /// moves are announced.
    func update(_ drawn: [DrawnControl], focused: ControlNode?) {
        for object in objects {
            let key = UnsafeMutableRawPointer(object)
            if let close = entries[key]?.close {
                entries[key]?.rect = close.rect
                continue
            }
            guard let node = entries[key]?.control?.node, let copy = drawn.last(where: { $0.control.node == node }) else { continue }
            entries[key]?.rect = copy.rect
        }
        guard focused != self.focused else { return }
        if let old = object(for: self.focused) { atk_object_notify_state_change(old, AtkState(ATK_STATE_FOCUSED.rawValue), 0) }
        self.focused = focused
        if let new = object(for: focused) { atk_object_notify_state_change(new, AtkState(ATK_STATE_FOCUSED.rawValue), 1) }
    }

    private func object(for node: ControlNode?) -> UnsafeMutablePointer<AtkObject>? {
        guard let node else { return nil }
        return objects.first { entries[UnsafeMutableRawPointer($0)]?.control?.node == node }
    }

    /// The window accessible's children as ATK reports them, read back through ATK's own API:
    /// `Pause (push button), Next (push button)`.
    func describe() -> String {
        let count = atk_object_get_n_accessible_children(windowAccessible)
        var names: [String] = []
        for index in 0..<max(0, count) {
            guard let child = atk_object_ref_accessible_child(windowAccessible, index) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(child)) }
            guard entries[UnsafeMutableRawPointer(child)] != nil else { continue }
            let name = atk_object_get_name(child).map { String(cString: $0) } ?? ""
            let role = atk_role_get_name(atk_object_get_role(child)).map { String(cString: $0) } ?? "?"
            names.append("\(name) (\(role))")
        }
        return names.joined(separator: ", ")
    }

    // MARK: What the C callbacks ask

    fileprivate func entry(_ object: UnsafeMutableRawPointer?) -> Entry? { object.flatMap { entries[$0] } }

    fileprivate func isFocused(_ object: UnsafeMutableRawPointer?) -> Bool {
        guard let focused, let node = entry(object)?.control?.node else { return false }
        return node == focused
    }

    /// The display x of the window's left edge (a centred layer surface narrower than the
    /// display), which the drawn rects are offset by.
    var windowOriginX = 0.0

    /// The drawn rect in `coordinates` (window or screen; ATK's parent is the window).
    fileprivate func extents(_ object: UnsafeMutableRawPointer?, screen: Bool) -> Rect {
        guard let rect = entry(object)?.rect.offsetBy(dx: -windowOriginX, dy: 0) else { return .zero }
        guard screen, let gdkWindow = gtk_widget_get_window(window) else { return rect }
        var x: Int32 = 0, y: Int32 = 0
        gdk_window_get_origin(gdkWindow, &x, &y)
        return rect.offsetBy(dx: Double(x), dy: Double(y))
    }

    fileprivate var ownObjects: [UnsafeMutablePointer<AtkObject>] { objects }
    fileprivate var ownWindowAccessible: UnsafeMutablePointer<AtkObject> { windowAccessible }
}

/// The GObject and ATK plumbing behind `ControlAccessibility`: C callbacks carry no Swift
/// context, so they reach the one live instance through `current`.
private enum ATKHooks {
    // nonisolated(unsafe): read and written only on the GTK main thread, where ATK calls in.
    nonisolated(unsafe) static var current: ControlAccessibility?
    nonisolated(unsafe) static var originalChildCount: (@convention(c) (UnsafeMutablePointer<AtkObject>?) -> gint)?
    nonisolated(unsafe) static var originalRefChild: (@convention(c) (UnsafeMutablePointer<AtkObject>?, gint) -> UnsafeMutablePointer<AtkObject>?)?
    nonisolated(unsafe) static var parentStateSet: (@convention(c) (UnsafeMutablePointer<AtkObject>?) -> UnsafeMutablePointer<AtkStateSet>?)?
    nonisolated(unsafe) static var controlType: GType = 0
    /// ATK's action strings must outlive the call: made once.
    // nonisolated(unsafe): never written after they are made, never freed.
    nonisolated(unsafe) static let clickName = UnsafePointer(strdup("click")!)
    nonisolated(unsafe) static let clickDescription = UnsafePointer(strdup("Presses the control")!)

    /// Wraps the children functions of the window accessible's class (GtkWindowAccessible:
    /// the nook's window is its process's only one).
    static func install(on accessible: UnsafeMutablePointer<AtkObject>) {
        guard originalChildCount == nil, let instanceClass = accessible.pointee.parent.g_type_instance.g_class else { return }
        let atkClass = UnsafeMutableRawPointer(instanceClass).assumingMemoryBound(to: AtkObjectClass.self)
        originalChildCount = atkClass.pointee.get_n_children
        originalRefChild = atkClass.pointee.ref_child
        atkClass.pointee.get_n_children = { object in
            let own = ATKHooks.originalChildCount?(object) ?? 0
            guard let live = ATKHooks.current, object == live.ownWindowAccessible else { return own }
            return own + gint(live.ownObjects.count)
        }
        atkClass.pointee.ref_child = { object, index in
            let own = ATKHooks.originalChildCount?(object) ?? 0
            guard let live = ATKHooks.current, object == live.ownWindowAccessible, index >= own else {
                return ATKHooks.originalRefChild?(object, index)
            }
            let position = Int(index - own)
            guard position < live.ownObjects.count else { return nil }
            let child = live.ownObjects[position]
            g_object_ref(UnsafeMutableRawPointer(child))
            return child
        }
    }

    static func ownChildren(of accessible: UnsafeMutablePointer<AtkObject>) -> gint { originalChildCount?(accessible) ?? 0 }

    /// A new `NookControlAccessible` (an AtkObject with AtkComponent and AtkAction).
    static func makeControlObject() -> UnsafeMutablePointer<AtkObject> {
        if controlType == 0 { controlType = registerControlType() }
        let object = g_object_new_with_properties(controlType, 0, nil, nil)!
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: AtkObject.self)
    }

    private static func registerControlType() -> GType {
        let parent = atk_object_get_type()
        var query = GTypeQuery()
        g_type_query(parent, &query)
        let type = g_type_register_static_simple(parent, "NookControlAccessible", query.class_size, { klass, _ in
            let atkClass = klass!.assumingMemoryBound(to: AtkObjectClass.self)
            ATKHooks.parentStateSet = atkClass.pointee.ref_state_set
            atkClass.pointee.ref_state_set = { object in
                let set = ATKHooks.parentStateSet?(object) ?? atk_state_set_new()
                var states = [ATK_STATE_ENABLED, ATK_STATE_SENSITIVE, ATK_STATE_VISIBLE, ATK_STATE_SHOWING, ATK_STATE_FOCUSABLE]
                if ATKHooks.current?.isFocused(object.map(UnsafeMutableRawPointer.init)) == true { states.append(ATK_STATE_FOCUSED) }
                for state in states { atk_state_set_add_state(set, AtkStateType(state.rawValue)) }
                return set
            }
        }, query.instance_size, nil, GTypeFlags(rawValue: 0))

        var component = GInterfaceInfo(interface_init: { iface, _ in
            let table = iface!.assumingMemoryBound(to: AtkComponentIface.self)
            table.pointee.get_extents = { component, x, y, width, height, coordinates in
                let rect = ATKHooks.current?.extents(component.map { UnsafeMutableRawPointer($0) }, screen: coordinates == ATK_XY_SCREEN) ?? .zero
                x?.pointee = gint(rect.x.rounded())
                y?.pointee = gint(rect.y.rounded())
                width?.pointee = gint(rect.width.rounded())
                height?.pointee = gint(rect.height.rounded())
            }
        }, interface_finalize: nil, interface_data: nil)
        g_type_add_interface_static(type, atk_component_get_type(), &component)

        var action = GInterfaceInfo(interface_init: { iface, _ in
            let table = iface!.assumingMemoryBound(to: AtkActionIface.self)
            table.pointee.get_n_actions = { _ in 1 }
            table.pointee.get_name = { _, index in index == 0 ? ATKHooks.clickName : nil }
            table.pointee.get_description = { _, index in index == 0 ? ATKHooks.clickDescription : nil }
            table.pointee.do_action = { object, index in
                guard index == 0, let live = ATKHooks.current, let entry = live.entry(object.map { UnsafeMutableRawPointer($0) }) else { return 0 }
                switch entry.subject {
                case .control(let control): live.onActivate(control)
                case .close(let target): live.onClose(target)
                }
                return 1
            }
        }, interface_finalize: nil, interface_data: nil)
        g_type_add_interface_static(type, atk_action_get_type(), &action)
        return type
    }

    /// `children-changed::<detail>(index, child)` on `parent` (`g_signal_emit_by_name` is
    /// variadic, which Swift cannot call: `g_signal_emitv` with GValues instead).
    static func emitChildrenChanged(_ parent: UnsafeMutablePointer<AtkObject>, _ detail: String, index: Int, child: UnsafeMutablePointer<AtkObject>) {
        var values = [GValue(), GValue(), GValue()]
        g_value_init(&values[0], atk_object_get_type())
        g_value_set_object(&values[0], UnsafeMutableRawPointer(parent))
        g_value_init(&values[1], g_type_from_name("guint"))
        g_value_set_uint(&values[1], guint(clamping: index))
        g_value_init(&values[2], g_type_from_name("gpointer"))
        g_value_set_pointer(&values[2], UnsafeMutableRawPointer(child))
        let signal = g_signal_lookup("children-changed", atk_object_get_type())
        g_signal_emitv(&values, signal, g_quark_from_string(detail), nil)
        for index in values.indices { g_value_unset(&values[index]) }
    }
}
