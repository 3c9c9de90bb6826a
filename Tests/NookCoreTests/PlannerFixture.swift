@testable import NookCore

/// Builders for planner tests: views, scenes on a notched laptop display, and plans.
enum PlannerFixture {
    static let laptop = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)

    static func settings(
        reduceMotion: Bool = false, convert: CurveOverride = .theme, peek: CurveOverride = .theme, theme: Theme = .builtIn
    ) -> PlannerSettings {
        PlannerSettings(theme: theme, display: laptop, reduceMotion: reduceMotion, sharedElementAnimation: convert,
                        sharedElementPeekAnimation: peek)
    }

    // MARK: Views

    static func node(_ kind: NodeKind, _ children: [ViewNode] = [], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        var props = NodeProps()
        configure(&props)
        return ViewNode(kind: kind, props: props, children: children)
    }

    /// A custom view (`CoverArt` by default) with a fixed square frame, optionally marked.
    static func cover(_ side: Double, id: String? = "cover", name: String = "CoverArt", style: SharedStyle = .resize,
                      isSource: Bool = true, properties: SharedProperties = .frame) -> ViewNode {
        node(.view) {
            $0.name = name
            $0.width = side
            $0.height = side
            if let id { $0.shared = SharedMark(id: id, style: style, properties: properties, isSource: isSource) }
        }
    }

    static func text(_ string: String, size: Double = 13, id: String? = nil, style: SharedStyle = .resize,
                     _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.text) {
            $0.text = string
            $0.fontSize = size
            if let id { $0.shared = SharedMark(id: id, style: style) }
            configure(&$0)
        }
    }

    static func timer(size: Double, id: String? = "timer", style: SharedStyle = .scale) -> ViewNode {
        node(.text) {
            $0.timerEnd = 1_800_000_000_000_000
            $0.fontSize = size
            $0.monospacedDigits = true
            if let id { $0.shared = SharedMark(id: id, style: style) }
        }
    }

    static func image(_ symbol: String = "music.note") -> ViewNode { node(.image) { $0.symbol = symbol } }

    static func hstack(_ children: [ViewNode], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.hstack, children, configure)
    }

    static func vstack(_ children: [ViewNode], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.vstack, children, configure)
    }

    static func owned(_ owner: String, _ view: ViewNode) -> OwnedView { OwnedView(owner: owner, view: view) }

    // MARK: Scenes

    /// The song activity of the music module: cover in the pill, the peek and the expanded view.
    static let songLeading = cover(20)
    static let songTrailing = image("waveform")
    static let songPeek = hstack([cover(48), text("Song title")])
    static let songExpanded = vstack([cover(120), text("Song title", size: 17), text("Artist")])
    static let musicHome = hstack([cover(156), node(.view) { $0.name = "TrackDetails"; $0.width = 200; $0.height = 120 }])

    static func songContent(
        leading: ViewNode = songLeading, trailing: ViewNode = songTrailing, minimal: [OwnedView] = [],
        peek: ViewNode? = nil, expanded: ExpandedContent? = nil
    ) -> SceneContent {
        SceneContent(
            compactLeading: owned("music/song", leading), compactTrailing: owned("music/song", trailing), minimal: minimal,
            peek: peek.map { owned("music/song", $0) }, expanded: expanded)
    }

    static func scene(_ presentation: Presentation, _ content: SceneContent, _ settings: PlannerSettings = settings())
        -> PlannerScene
    {
        PlannerScene(presentation: presentation, content: content, settings: settings)
    }

    static func plan(
        _ from: PlannerScene, _ to: PlannerScene, cause: PlanCause, serial: UInt64 = 2, via: OpenVia = .claim,
        animate: Bool = true, callerAnimation: String? = nil, settings: PlannerSettings = settings(),
        inFlight: InFlightPlan? = nil, marks: [String: ModuleMarks]? = nil
    ) -> TransitionPlan {
        TransitionPlanner.plan(
            from: from, to: to,
            action: PlanAction(cause: cause, serial: serial, via: via, animate: animate, callerAnimation: callerAnimation),
            settings: settings, inFlight: inFlight, marks: marks)
    }

    /// Pill -> expanded: open onto the activity's expanded view.
    static func openSong(
        pill: SceneContent = songContent(), expanded: ViewNode = songExpanded, via: OpenVia = .claim,
        settings: PlannerSettings = settings()
    ) -> TransitionPlan {
        var open = pill
        open.expanded = .activity(owned("music/song", expanded))
        return plan(scene(.pill, pill, settings), scene(.expanded, open, settings), cause: .open, via: via, settings: settings)
    }

    static func close(_ a: Rect?, _ b: Rect?) -> Bool {
        guard let a, let b else { return false }
        return a.isClose(to: b)
    }
}
