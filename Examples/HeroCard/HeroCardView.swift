import NookModuleAPI

/// Seed 001's hero card as a module writes it: a `group/hero` whose cover, marked
/// `shared-[cover]`, grows when `expanded` flips, inside an animation scope on `expanded`.
///
/// The seed's `@State` is a stored property (the module keeps its state and sends the view
/// again), its `Button` the SDK's: a press in the nook runs `toggle` in the module (`Card`
/// flips `expanded` and sends the card again). Its `@FocusState` is the `focused` flag the
/// module passes to the group as explicit state.
public struct HeroCard: NookView {
    public var expanded: Bool
    public var focused: Bool
    public var toggle: @Sendable () async -> Void

    public init(expanded: Bool = false, focused: Bool = false, toggle: @escaping @Sendable () async -> Void = {}) {
        self.expanded = expanded
        self.focused = focused
        self.toggle = toggle
    }

    private var cover: some NookView {
        RoundedRectangle(cornerRadius: 16)
            .fill(.indigo)
    }

    public var body: some NookView {
        VStack {
            ZStack {
                if expanded {
                    cover.tw("shared-[cover] w-80 h-50")
                } else {
                    cover.tw("shared-[cover] w-20 h-20")
                }
            }
            Button("Toggle", action: toggle)
                .buttonStyle(.tw("button-primary opacity-60 group-focus/hero:opacity-100 dark:group-hover/hero:opacity-70"))
                .actionID("toggle")
        }
        .tw("group/hero animate-smooth duration-400", value: expanded)
        .groupState(focus: focused)
    }
}

/// The hero card as a live activity: the card is the expanded view, a small cover the pill.
/// Its Toggle button (action `toggle`) runs `toggle`.
public func heroActivity(expanded: Bool, focused: Bool, toggle: @escaping @Sendable () async -> Void = {}) -> NookLiveActivity {
    var activity = NookLiveActivity(id: "card", accessibilityLabel: "Hero card") {
        RoundedRectangle(cornerRadius: 4).fill(.indigo).frame(width: 20, height: 20)
    } compactTrailing: {
        Text(expanded ? "Large" : "Small")
    } minimal: {
        Image(systemName: "rectangle.stack")
    }
    activity.setExpanded { HeroCard(expanded: expanded, focused: focused, toggle: toggle) }
    return activity
}
