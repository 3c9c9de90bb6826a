import CGtk
import NookCore
import NookRenderModel

/// Controls on the GTK side (contract 1.1, "Touch"): pointer presses and keys go to the
/// model's `PressTracker` and `KeyboardFocus`, which hit-test the frame last painted (what is
/// on screen, mid-transition included); what they decide is sent as `Render.Activate` or
/// `Control.Close`. Shows the hand cursor over controls, lets the window take the keyboard
/// while the nook is expanded, and keeps the accessibility tree (`ControlAccessibility`) in
/// step with the controls drawn. Main thread only, like `Renderer`, which owns it.
final class ControlInput {
    private var presses = PressTracker()
    private var keyboard = KeyboardFocus()
    /// The frame last painted.
    private var onScreen = DisplayList()
    private var pointer: Point?
    private var showsHand = false
    /// The keyboard among reach targets while `Control.Focus` gave the nook the keyboard.
    private var reach = ReachFocus()
    /// True from `Render.FocusRequested` until Escape gives the keyboard back.
    private(set) var holdsKeyboard = false
    private enum KeyboardMode { case none, onDemand, exclusive }
    private var keyboardMode = KeyboardMode.none
    private let nook: NookWindow
    /// The current scene's controls at rest and its presentation, from the renderer's presenter.
    private let scene: () -> (controls: [SceneControl], presentation: Presentation)
    private let link: () -> BrokerLink?
    private lazy var hand = gdk_cursor_new_from_name(gdk_display_get_default(), "pointer")
    let accessibility: ControlAccessibility

    init(nook: NookWindow, scene: @escaping () -> (controls: [SceneControl], presentation: Presentation), link: @escaping () -> BrokerLink?) {
        self.nook = nook
        self.scene = scene
        self.link = link
        accessibility = ControlAccessibility(window: nook.widget)
        gtk_widget_add_events(nook.widget, Int32(bitPattern: GDK_KEY_PRESS_MASK.rawValue))
        typealias KeyHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventKey>?, UnsafeMutableRawPointer?) -> gboolean
        let onKey: KeyHandler = { _, event, data in
            guard let event else { return 0 }
            let input = Unmanaged<ControlInput>.fromOpaque(data!).takeUnretainedValue()
            return input.key(event.pointee.keyval, shift: event.pointee.state & GDK_SHIFT_MASK.rawValue != 0) ? 1 : 0
        }
        connectSignal(UnsafeMutableRawPointer(nook.widget), "key-press-event", onKey, Unmanaged.passUnretained(self).toOpaque())
        // Another client took the pointer grab mid-press: no release will come, so give the press up.
        typealias GrabHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean
        let onGrabBroken: GrabHandler = { _, _, data in
            let input = Unmanaged<ControlInput>.fromOpaque(data!).takeUnretainedValue()
            if case .cancelled(let control) = input.presses.cancel() { Log.debug("press cancelled action=\(control.action) (grab broken)") }
            return 0
        }
        connectSignal(UnsafeMutableRawPointer(nook.widget), "grab-broken-event", onGrabBroken, Unmanaged.passUnretained(self).toOpaque())
        accessibility.onActivate = { [unowned self] control in self.activate(control.target, action: control.action, by: "accessibility") }
        accessibility.onClose = { [unowned self] target in self.dismiss(target, by: "accessibility") }
    }

    /// The control with keyboard focus, for the next frame.
    var focused: ControlNode? { keyboard.focused }

    /// The control Enter or Space just activated: it looks pressed until `keyReleaseSource`
    /// fires, `ButtonLook.keyboardPressMilliseconds` later.
    private(set) var keyPressed: ControlNode?
    private var keyReleaseSource: guint = 0

    /// Shows `control` pressed for a moment, as a pointer press does.
    private func showKeyPress(_ control: ControlNode) {
        keyPressed = control
        Log.debug("key press shown path=\(control.path)")
        if keyReleaseSource != 0 { g_source_remove(keyReleaseSource) }
        keyReleaseSource = g_timeout_add(ButtonLook.keyboardPressMilliseconds, { data in
            let input = Unmanaged<ControlInput>.fromOpaque(data!).takeUnretainedValue()
            input.keyReleaseSource = 0
            input.keyPressed = nil
            Log.debug("key press released")
            input.nook.frames.invalidate()
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(self).toOpaque())
        nook.frames.invalidate()
    }

    /// A frame was painted: presses, the cursor and the accessible objects follow it. While the
    /// nook holds the keyboard and nothing has the reach focus (it just came, or Escape closed
    /// the panel), the focus goes to the pill.
    func painted(_ list: DisplayList) {
        onScreen = list
        updateCursor()
        accessibility.setCloseControls(list.targets)
        accessibility.update(list.controls, focused: keyboard.focused)
        if holdsKeyboard, reach.focused == nil, !inPanel, case .focused(let target) = reach.start(targets: list.targets) {
            Log.debug("reach focus \(target.kind.rawValue) \(target.owner)")
            nook.frames.invalidate()
        }
    }

    /// The ring around the target with the reach focus, when there is one and no control has
    /// the keyboard focus.
    func reachRing(in list: DisplayList) -> FocusRing? {
        guard holdsKeyboard, keyboard.focused == nil, !inPanel else { return nil }
        return reach.ring(in: list)
    }

    /// A plan arrived: focus leaves controls that went, and the window takes the keyboard only
    /// while the nook is expanded (or holds it for `Control.Focus`).
    func planReceived() {
        let (controls, presentation) = scene()
        if keyboard.refresh(controls: controls, presentation: presentation) { Log.debug("focus cleared (its control went away)") }
        accessibility.setControls(controls)
        if holdsKeyboard, presentation == .hidden { release("the nook is hidden") }
        updateKeyboardMode()
    }

    /// `Render.FocusRequested` (after `Control.Focus`, `nookctl focus`): take the keyboard, the
    /// focus on the pill.
    func focusRequested() {
        holdsKeyboard = true
        reach.clear()
        Log.info("the nook takes the keyboard (focus requested)")
        updateKeyboardMode()
        if !inPanel, case .focused(let target) = reach.start(targets: onScreen.targets) {
            Log.debug("reach focus \(target.kind.rawValue) \(target.owner)")
        }
        nook.frames.invalidate()
    }

    private func release(_ why: String) {
        holdsKeyboard = false
        reach.clear()
        Log.info("the nook gives the keyboard back (\(why))")
        updateKeyboardMode()
        nook.frames.invalidate()
    }

    /// Expanded onto an activity or a home, as on screen: the scene's controls take the keys.
    /// (The board's tiles are reach targets.)
    private var inPanel: Bool { onScreen.targets.contains { $0.kind == .panel } }

    func pointerMoved(to point: Point?) {
        pointer = point
        updateCursor()
    }

    /// The control a pointer press holds, if any.
    var heldControl: ControlNode? { presses.held?.node }

    /// Button 1 went down or up at `point`. Returns true when that was a control's press or
    /// release, so nothing else (the pill's click-to-open) acts on it.
    func button(pressed: Bool, at point: Point) -> Bool {
        if pressed {
            guard case .pressed(let control) = presses.press(at: point, in: onScreen) else { return false }
            Log.debug("press action=\(control.action) path=\(control.node.path)")
            return true
        }
        switch presses.release(at: point, in: onScreen) {
        case .activate(let target, let action):
            activate(target, action: action, by: "pointer")
            return true
        case .cancelled(let control):
            Log.debug("press cancelled action=\(control.action) (released outside)")
            return true
        case .none, .pressed:
            return false
        }
    }

    /// A key: Tab, Shift+Tab, Enter, Space and Escape mean something while expanded; while the
    /// nook holds the keyboard (`Control.Focus`) the arrow keys, Delete and BackSpace too, and
    /// outside the panel they move among the pill, a peek, the capsules and the board's tiles
    /// (`ReachFocus`). Any other key, or any key at another time, passes.
    private func key(_ keyval: guint, shift: Bool) -> Bool {
        let code = Int32(bitPattern: keyval)
        if holdsKeyboard, !inPanel {
            let reachKey: ReachFocus.Key
            switch code {
            case GDK_KEY_Tab, GDK_KEY_KP_Tab: reachKey = shift ? .previous : .next
            case GDK_KEY_ISO_Left_Tab, GDK_KEY_Left, GDK_KEY_Up, GDK_KEY_KP_Left, GDK_KEY_KP_Up: reachKey = .previous
            case GDK_KEY_Right, GDK_KEY_Down, GDK_KEY_KP_Right, GDK_KEY_KP_Down: reachKey = .next
            case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space, GDK_KEY_KP_Space: reachKey = .activate
            case GDK_KEY_Delete, GDK_KEY_KP_Delete, GDK_KEY_BackSpace: reachKey = .dismiss
            case GDK_KEY_Escape: reachKey = .close
            default: return false
            }
            // Escape on the board closes it to the pill first; the keyboard stays.
            if reachKey == .close, scene().presentation == KeyboardFocus.presentation {
                reach.clear()
                if let link = link() { Task { await link.close() } }
                return true
            }
            switch reach.handle(reachKey, targets: onScreen.targets) {
            case .none:
                return true
            case .focused(let target):
                Log.debug("reach focus \(target.kind.rawValue) \(target.owner)")
                nook.frames.invalidate()
            case .open(let target):
                Log.debug("reach open \(target.kind.rawValue) \(target.owner) by keyboard")
                if let link = link() { Task { await link.openSlot(target, via: .claim) } }
            case .dismiss(let target):
                dismiss(target, by: "keyboard")
            case .release:
                release("Escape")
            }
            return true
        }
        let key: KeyboardFocus.Key
        switch code {
        case GDK_KEY_Tab, GDK_KEY_KP_Tab: key = shift ? .previous : .next
        case GDK_KEY_ISO_Left_Tab: key = .previous
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space, GDK_KEY_KP_Space: key = .activate
        case GDK_KEY_Escape: key = .close
        case GDK_KEY_Delete, GDK_KEY_KP_Delete, GDK_KEY_BackSpace:
            // Delete in an expanded activity ends it, as its close control does.
            guard holdsKeyboard, let panel = onScreen.targets.first(where: { $0.kind == .panel }), panel.dismissible else { return false }
            dismiss(panel, by: "keyboard")
            return true
        default: return false
        }
        let (controls, presentation) = scene()
        switch keyboard.handle(key, controls: controls, presentation: presentation) {
        case .none:
            return false
        case .focused(let control):
            Log.debug("focus action=\(control.action) path=\(control.node.path) label=\(control.label)")
            nook.frames.invalidate()
            return true
        case .activate(let target, let action):
            showKeyPress(target.node)
            activate(target, action: action, by: "keyboard")
            return true
        case .close:
            Log.debug("escape: asking to close")
            nook.frames.invalidate()
            if let link = link() { Task { await link.close() } }
            return true
        }
    }

    /// `Control.EndActivity` for `target`'s activity, as `nookctl end` does.
    private func dismiss(_ target: ReachTarget, by source: String) {
        guard target.dismissible, let (module, activity) = target.activity, let link = link() else { return }
        Log.debug("dismiss \(module)/\(activity) by \(source)")
        Task { await link.endActivity(module: module, activity: activity) }
    }

    private func activate(_ target: ControlTarget, action: String, by source: String) {
        Log.debug("activate action=\(action) serial=\(target.serial) path=\(target.node.path) by=\(source)")
        guard let link = link() else { return }
        Task { await link.activate(target, action: action) }
    }

    /// The hand over a control, a capsule, a board tile and the close control (what a click
    /// opens or ends), the default arrow elsewhere.
    private func updateCursor() {
        let overControl = pointer.map { point in
            if onScreen.control(at: point) != nil { return true }
            switch onScreen.target(at: point)?.kind {
            case .capsule?, .tile?, .close?: return true
            default: return false
            }
        } ?? false
        guard overControl != showsHand, let window = gtk_widget_get_window(nook.widget) else { return }
        showsHand = overControl
        gdk_window_set_cursor(window, overControl ? hand : nil)
        Log.debug("cursor \(overControl ? "pointer" : "default")")
    }

    /// While the nook holds the keyboard (`Control.Focus`) the window takes it: on layer shell
    /// exclusively (the compositor gives it the keyboard at once), on X11 it accepts focus and
    /// takes it. Otherwise, while expanded the window may take the keyboard: on layer shell on
    /// demand (when the person clicks into it); on X11 it accepts focus, and takes it when the
    /// nook opened with the pointer elsewhere (a shortcut or script ran `Open`), never from
    /// under a pointer that hovered it open, so typing elsewhere is not interrupted.
    private func updateKeyboardMode() {
        let wanted: KeyboardMode = holdsKeyboard ? .exclusive : scene().presentation == KeyboardFocus.presentation ? .onDemand : .none
        guard wanted != keyboardMode else { return }
        keyboardMode = wanted
        if nook.usesLayerShell {
            let mode = switch wanted {
            case .none: GTK_LAYER_SHELL_KEYBOARD_MODE_NONE
            case .onDemand: GTK_LAYER_SHELL_KEYBOARD_MODE_ON_DEMAND
            case .exclusive: GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE
            }
            gtk_layer_set_keyboard_mode(nook.window, mode)
        } else {
            gtk_window_set_accept_focus(nook.window, wanted == .none ? 0 : 1)
            if wanted == .exclusive || (wanted == .onDemand && pointer == nil) { gtk_window_present(nook.window) }
        }
    }
}
