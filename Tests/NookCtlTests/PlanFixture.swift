import NookBus
import NookCore
@testable import NookCtlKit

/// Real plans from NookCore's planner, encoded as the contract's `a{sv}` (the planner's
/// `wireDictionary()` through a small PropValue -> DBusValue codec), as a renderer gets them.
enum PlanFixture {
    static let laptop = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)
    static let settings = PlannerSettings(display: laptop)

    static func node(_ kind: NodeKind, _ children: [ViewNode] = [], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        var props = NodeProps()
        configure(&props)
        return ViewNode(kind: kind, props: props, children: children)
    }

    static func cover(_ side: Double, name: String = "CoverArt") -> ViewNode {
        node(.view) {
            $0.name = name
            $0.width = side
            $0.height = side
            $0.shared = SharedMark(id: "cover")
        }
    }

    static func text(_ string: String, size: Double = 13) -> ViewNode {
        node(.text) { $0.text = string; $0.fontSize = size }
    }

    static func owned(_ view: ViewNode) -> OwnedView { OwnedView(owner: "music/song", view: view) }

    static let pillContent = SceneContent(compactLeading: owned(cover(20)), compactTrailing: owned(node(.image) { $0.symbol = "waveform" }))

    static var openContent: SceneContent {
        var content = pillContent
        content.expanded = .activity(owned(node(.vstack, [cover(156), text("Song title", size: 17), text("Artist")])))
        return content
    }

    static var peekContent: SceneContent {
        var content = pillContent
        content.peek = owned(node(.hstack, [cover(48, name: "SmallCover"), text("Song title")]))
        return content
    }

    static func scene(_ presentation: Presentation, _ content: SceneContent) -> PlannerScene {
        PlannerScene(presentation: presentation, content: content, settings: settings)
    }

    static func plan(_ from: PlannerScene, _ to: PlannerScene, _ cause: PlanCause, serial: UInt64, via: OpenVia = .claim,
                     settings: PlannerSettings = settings) -> TransitionPlan {
        TransitionPlanner.plan(from: from, to: to, action: PlanAction(cause: cause, serial: serial, via: via), settings: settings)
    }

    /// The tour: pill -> expanded (the cover moves), expanded -> pill, pill -> peek (a
    /// different view under the id: cross-fade), peek -> pill.
    static var tour: [TransitionPlan] {
        let pill = scene(.pill, pillContent)
        let open = scene(.expanded, openContent)
        let peek = scene(.peek, peekContent)
        return [
            plan(scene(.hidden, SceneContent()), pill, .show, serial: 1),
            plan(pill, open, .open, serial: 2),
            plan(open, pill, .close, serial: 3),
            plan(pill, peek, .peek, serial: 4),
            plan(peek, pill, .endPeek, serial: 5),
        ]
    }

    /// The plan a renderer subscribing now gets: a fresh window onto `scene`.
    static func subscribe(_ scene: PlannerScene, serial: UInt64 = 1) -> TransitionPlan {
        plan(Self.scene(.hidden, SceneContent()), scene, .subscribe, serial: serial)
    }

    static func wire(_ plan: TransitionPlan) -> DBusValue { dbus(.dictionary(plan.wireDictionary())) }

    static func recorded(_ plans: [TransitionPlan], gap: Double = 1.5) -> [RecordedPlan] {
        plans.enumerated().map { RecordedPlan(plan: wire($1), time: Double($0) * gap) }
    }

    /// PropValue -> DBusValue, structurally: arrays of dictionaries are `aa{sv}`, of doubles
    /// `ad`, of strings `as`, anything else `av`; structs stay structs.
    static func dbus(_ value: PropValue) -> DBusValue {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .int(let n): return .int64(n)
        case .uint(let n): return .uint64(n)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .structure(let fields): return .structure(fields.map(dbus))
        case .dictionary(let entries): return .vardict(entries.mapValues(dbus))
        case .node(let raw): return .string("<\(raw.kind)>")
        case .array(let items):
            let values = items.map(dbus)
            if items.isEmpty || items.allSatisfy({ if case .dictionary = $0 { true } else { false } }) {
                return .array(element: "a{sv}", values)
            }
            if items.allSatisfy({ if case .double = $0 { true } else { false } }) { return .array(element: "d", values) }
            if items.allSatisfy({ if case .string = $0 { true } else { false } }) { return .array(element: "s", values) }
            return .array(element: "v", values.map(DBusValue.variant))
        }
    }
}
