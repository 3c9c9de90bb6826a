import NookCore
/// A control: its label is drawn in the nook, and pressing it (a click, Enter on the focused
/// control, `nookctl press`) runs `action` in the module.
///
/// As in SwiftUI, the label is any view; a title alone is a `Text` in an `hstack` padded by
/// `titlePadding`. The label's node carries the contract's `action` prop and `role: button`
/// (several label views are laid out in an `hstack` that does), so the renderer draws the
/// button's plate, lighter under the pointer and pressed;
/// the renderer makes it pressable and shows `pressed` / `group-pressed` variants while it is
/// held. `action` runs in the module, off any actor, one press at a time (see `NookAction`).
///
/// ```swift
/// Button("Toggle") { await card.toggle() }
///     .tw("button-primary")
/// Button(action: { await player.playPause() }) {
///     Image(systemName: playing ? "pause.fill" : "play.fill")
/// }
/// .accessibilityLabel(playing ? "Pause" : "Play")
/// .actionID("play-pause")
/// ```
public struct Button: NookView {
    public typealias Body = Never
    let content: EncodedView

    /// A button whose label is `label`.
    public init(action: @escaping @Sendable () async -> Void, @NookViewBuilder label: () -> some NookView) {
        content = Self.control(label()._encode(), NookAction(action))
    }

    /// A button whose label is the text `title`, with room around it for the plate renderers
    /// draw behind a button (`titlePadding`).
    public init(_ title: String, action: @escaping @Sendable () async -> Void) {
        let label = HStack { Text(title) }
            .padding(.horizontal, Self.titlePadding.leading).padding(.vertical, Self.titlePadding.top)
        content = Self.control(label, NookAction(action))
    }

    /// Space between a titled button's text and the edge of its plate, in points.
    public static let titlePadding = EdgeInsets(top: 5, leading: 12, bottom: 5, trailing: 12)

    /// A button drawn as the symbol `systemImage`, with `title` as its accessible name
    /// (`action_label`): the nook's controls are small, so the icon stands for the title.
    public init(_ title: String, systemImage: String, action: @escaping @Sendable () async -> Void) {
        var label = Image(systemName: systemImage)._encode()
        label.pieces[0].node.props.actionLabel = title
        content = Self.control(label, NookAction(action))
    }

    public func _encode() -> EncodedView { content }

    /// A control already encoded (NookIntent.swift).
    init(encoded content: EncodedView) { self.content = content }

    /// `label` as one control node running `action`, with `role: button`, so renderers draw
    /// it as a button (a plate with hover and pressed highlights; docs/renderer.md).
    static func control(_ label: EncodedView, _ action: NookAction) -> EncodedView {
        var view = label
        if view.pieces.count != 1 {
            // No label, or several views: one `hstack` is the control, as SwiftUI lays a
            // button's several label views side by side.
            view = EncodedView(ViewNode(kind: .hstack, children: label.nodes), actions: label.actions)
        }
        view = view.attachingAction(action)
        for index in view.pieces.indices { view.pieces[index].node.props.role = .button }
        return view
    }
}

extension EncodedView {
    /// Makes each piece's outermost node a control running `action`; a piece that is a
    /// control already gets a `zstack` around it, so both stay pressable.
    func attachingAction(_ action: NookAction) -> EncodedView {
        var out = self
        for index in out.pieces.indices {
            if out.pieces[index].node.props.action != nil {
                out.pieces[index] = Piece(node: ViewNode(kind: .zstack, children: [out.pieces[index].node]), wrappers: out.pieces[index].wrappers + 1)
            }
            out.pieces[index].node.props.action = out.actions.addProvisional(action)
        }
        return out
    }
}

/// How a button looks: the seed's `.buttonStyle(.tw("button-primary"))`. The nook has no
/// native button chrome, so a style is a class string on the control (a theme rule such as
/// `button-primary` names the look once, in `rules.named`).
public struct NookButtonStyle: Hashable, Sendable {
    let classes: String

    /// Classes for the control, as `.tw` takes them.
    public static func tw(_ classes: String) -> NookButtonStyle { NookButtonStyle(classes: classes) }
}

extension NookView {
    /// Styles this button (or any view) with `style`'s classes, as `.tw` would.
    public func buttonStyle(_ style: NookButtonStyle) -> EncodedView { tw(style.classes) }
}
