import NookCore
@testable import NookRenderModel

/// Real plans for presenter tests: NookCore's own planner on real scenes, encoded the way
/// nookd sends them (`PropValue.dictionary(plan.wireDictionary(sampleRate:))`).
enum PlanFixture {
    static let laptop = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)

    static func settings(reduceMotion: Bool = false) -> PlannerSettings {
        PlannerSettings(display: laptop, reduceMotion: reduceMotion)
    }

    // MARK: Views

    static func node(_ kind: NodeKind, _ children: [ViewNode] = [], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        var props = NodeProps()
        configure(&props)
        return ViewNode(kind: kind, props: props, children: children)
    }

    static func cover(_ side: Double, id: String? = "cover", name: String = "CoverArt") -> ViewNode {
        node(.view) {
            $0.name = name
            $0.params = ["art_url": .string("file:///tmp/cover.png")]
            $0.width = side
            $0.height = side
            if let id { $0.shared = SharedMark(id: id) }
        }
    }

    static func text(_ string: String, size: Double = 13, _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.text) {
            $0.text = string
            $0.fontSize = size
            configure(&$0)
        }
    }

    /// A `timer_end` text marked `timer` with style `scale`.
    static func timer(size: Double, end: Int64 = 1_800_000_000_000_000) -> ViewNode {
        node(.text) {
            $0.timerEnd = end
            $0.fontSize = size
            $0.monospacedDigits = true
            $0.shared = SharedMark(id: "timer", style: .scale)
        }
    }

    static func image(_ symbol: String) -> ViewNode { node(.image) { $0.symbol = symbol } }
    static func hstack(_ children: [ViewNode], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode { node(.hstack, children, configure) }
    static func vstack(_ children: [ViewNode], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode { node(.vstack, children, configure) }
    static func owned(_ owner: String, _ view: ViewNode) -> OwnedView { OwnedView(owner: owner, view: view) }

    // MARK: The song activity

    static let songLeading = cover(20)
    static let songTrailing = image("waveform")
    static let songPeek = hstack([cover(48), text("Song title")])
    static let songExpanded = vstack([cover(120), text("Song title", size: 17), text("Artist")])

    static func song(peek: ViewNode? = nil, expanded: ViewNode? = nil, leading: ViewNode = songLeading) -> SceneContent {
        SceneContent(
            compactLeading: owned("music/song", leading), compactTrailing: owned("music/song", songTrailing),
            peek: peek.map { owned("music/song", $0) }, expanded: expanded.map { .activity(owned("music/song", $0)) })
    }

    static func scene(_ presentation: Presentation, _ content: SceneContent, _ settings: PlannerSettings = settings()) -> PlannerScene {
        PlannerScene(presentation: presentation, content: content, settings: settings)
    }

    static func plan(
        _ from: PlannerScene, _ to: PlannerScene, cause: PlanCause, serial: UInt64 = 2, via: OpenVia = .claim,
        settings: PlannerSettings = settings(), inFlight: InFlightPlan? = nil
    ) -> TransitionPlan {
        TransitionPlanner.plan(from: from, to: to, action: PlanAction(cause: cause, serial: serial, via: via),
                               settings: settings, inFlight: inFlight)
    }

    /// The plan a renderer subscribing now receives: a fresh window onto `scene`.
    static func subscribe(_ scene: PlannerScene, serial: UInt64 = 1, settings: PlannerSettings = settings()) -> TransitionPlan {
        plan(Self.scene(.hidden, SceneContent(), settings), scene, cause: .subscribe, serial: serial, settings: settings)
    }

    /// Pill -> expanded onto the song's expanded view (a direct convert: the cover is shared).
    static func openSong(settings: PlannerSettings = settings()) -> (pill: PlannerScene, expanded: PlannerScene, plan: TransitionPlan) {
        let pill = scene(.pill, song(), settings)
        let expanded = scene(.expanded, song(expanded: songExpanded), settings)
        return (pill, expanded, plan(pill, expanded, cause: .open, settings: settings))
    }

    // MARK: Wire

    /// What nookd sends for `plan`.
    static func wire(_ plan: TransitionPlan, sampleRate: Double? = nil) -> PropValue {
        PropValue.dictionary(plan.wireDictionary(sampleRate: sampleRate))
    }

    /// A presenter that has drawn the subscribe plan of `from` and then received `plan` at `time`.
    static func presenter(playing plan: TransitionPlan, from: PlannerScene, at time: Double = 10) throws -> PlanPresenter {
        var presenter = PlanPresenter()
        try presenter.receive(wire(subscribe(from)), at: 0)
        try presenter.receive(wire(plan), at: time)
        return presenter
    }

    static func lerp(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
        Rect(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, width: a.width + (b.width - a.width) * t,
             height: a.height + (b.height - a.height) * t)
    }

    static func isClose(_ a: Rect?, _ b: Rect?, tolerance: Double = 1e-6) -> Bool {
        guard let a, let b else { return false }
        return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.width - b.width) <= tolerance
            && abs(a.height - b.height) <= tolerance
    }

    /// Strictly inside the box spanned by `a` and `b` in every component that differs.
    static func isStrictlyBetween(_ rect: Rect, _ a: Rect, _ b: Rect) -> Bool {
        func between(_ v: Double, _ p: Double, _ q: Double) -> Bool { p == q ? abs(v - p) < 1e-9 : (min(p, q) < v && v < max(p, q)) }
        return between(rect.x, a.x, b.x) && between(rect.y, a.y, b.y) && between(rect.width, a.width, b.width)
            && between(rect.height, a.height, b.height)
    }
}

extension DisplayList {
    func items(at path: String) -> [DrawItem] { items.filter { $0.path == path } }
    func item(at path: String) -> DrawItem? { items.first { $0.path == path } }
    func shared(_ key: String) -> [DrawItem] { items.filter { $0.sharedKey == key } }
}

extension DrawContent {
    var text: String? {
        if case .text(let string, _) = self { return string }
        return nil
    }
}
