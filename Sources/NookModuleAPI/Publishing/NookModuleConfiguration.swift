import NookCore
/// A module's own views, outside any activity: its compact content (shown in the pill when
/// no activity is), its home (the expanded panel for the module) and its board widget.
///
/// ```swift
/// var configuration = NookModuleConfiguration(id: "music", displayName: "Music")
/// configuration.setCompactLeading {
///     CoverArt(track: track).frame(width: 20, height: 20).nookSharedElement("cover")
/// }
/// configuration.setHome {
///     HStack {
///         CoverArt(track: track).frame(width: 156, height: 156).nookSharedElement("cover")
///         TrackDetails(track: track)
///     }
/// }
/// ```
public struct NookModuleConfiguration: Hashable, Sendable {
    /// The module id (`Register`'s `module`).
    public let id: String
    public var displayName: String?
    public var version: String?
    /// The module's own rules (`Register` info `rules`), token path -> value: used by its
    /// views only, before the theme's rules of the same name. `rules(_:)` adds named ones.
    public var ruleTokens: [String: PropValue] = [:]
    /// The content of each slot that has one.
    public private(set) var content: [ModuleSlot: SetContent] = [:]

    public init(id: String, displayName: String? = nil, version: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.version = version
    }

    /// `Register`'s `info`: `display_name`, `version` when set.
    public var registerInfo: [String: PropValue] {
        var info: [String: PropValue] = [:]
        if let displayName { info["display_name"] = .string(displayName) }
        if let version { info["version"] = .string(version) }
        if !ruleTokens.isEmpty { info["rules"] = .dictionary(ruleTokens) }
        return info
    }

    /// Named rules of this module's own (`rules.named.<name>`): a class naming one stands for
    /// its classes in this module's views. A rule the broker refuses (a cycle, too many
    /// classes) fails `Register` with `InvalidTheme` naming it.
    ///
    /// ```swift
    /// configuration.rules(["card": "p-2 rounded-xl", "hero-scope": "group/hero animate-smooth"])
    /// ```
    public mutating func rules(_ named: [String: String]) {
        for (name, classes) in named { ruleTokens["rules.named." + name] = .string(classes) }
    }

    /// Animation presets of this module's own (`rules.animations.<name>`): `animate-<name>` in
    /// its views, and `UpdateOptions.animation`, find them before the theme's preset of the same
    /// name; other modules never see them.
    ///
    /// ```swift
    /// configuration.animations(["wobble": .spring(response: 0.6, dampingFraction: 0.5)])
    /// configuration.defaultAnimation("wobble")
    /// ```
    public mutating func animations(_ named: [String: ModuleAnimation]) {
        for (name, animation) in named { ruleTokens["rules.animations." + name] = animation.token }
    }

    /// The preset this module's animation scopes run on when they name none and the update
    /// carries no `animation` (`rules.view.preset`, with `rules.view.withoutPreset: preset`):
    /// one of its own `animations` or a theme's. Without it such a scope keeps the caller's
    /// transaction, as SwiftUI's does: no `animation`, no animation.
    public mutating func defaultAnimation(_ name: String) {
        ruleTokens["rules.view.preset"] = .string("{rules.animations." + name + "}")
        ruleTokens["rules.view.withoutPreset"] = .string("preset")
    }

    /// The pill's left side while no activity of any module is shown.
    public mutating func setCompactLeading(animate: Bool = true, @NookViewBuilder _ view: () -> some NookView) {
        set(.compactLeading, animate: animate, view()._encode())
    }

    /// The pill's right side while no activity of any module is shown.
    public mutating func setCompactTrailing(animate: Bool = true, @NookViewBuilder _ view: () -> some NookView) {
        set(.compactTrailing, animate: animate, view()._encode())
    }

    /// The module's home: the expanded panel opened onto the module.
    public mutating func setHome(animate: Bool = true, @NookViewBuilder _ view: () -> some NookView) {
        set(.home, animate: animate, view()._encode())
    }

    /// The module's cell on the board.
    public mutating func setWidget(animate: Bool = true, @NookViewBuilder _ view: () -> some NookView) {
        set(.widget, animate: animate, view()._encode())
    }

    /// Removes a slot's content (`ClearContent`).
    public mutating func clear(_ slot: ModuleSlot) { content[slot] = nil }

    /// Every `SetContent` call that publishes the configuration, in slot order.
    public var setContentCalls: [SetContent] { ModuleSlot.allCases.compactMap { content[$0] } }

    /// Puts a slot back to a known state (the SDK's undo when the broker refuses a view).
    mutating func restore(_ slot: ModuleSlot, to call: SetContent?) { content[slot] = call }

    private mutating func set(_ slot: ModuleSlot, animate: Bool, _ view: EncodedView) {
        var (node, actions) = view.finalizedRoot(key: slot.rawValue)
        if !animate { node.props.animate = false }
        content[slot] = SetContent(slot: slot, view: node, actions: actions)
    }
}

/// A module's own animation preset (`NookModuleConfiguration.animations`), in the forms
/// `SetTokens` takes.
public enum ModuleAnimation: Hashable, Sendable {
    /// A spring: `response` seconds (0.001...60), `dampingFraction` (0.01...10); outside those,
    /// `Register` fails with `InvalidTheme`.
    case spring(response: Double, dampingFraction: Double)
    /// Another preset by name (`smooth`, `snappy`, `bouncy`, `linear`, or one of the theme's).
    case preset(String)

    var token: PropValue {
        switch self {
        case .spring(let response, let dampingFraction):
            .dictionary(["response": .double(response), "damping_fraction": .double(dampingFraction)])
        case .preset(let name):
            .string("{rules.animations." + name + "}")
        }
    }
}
