import NookCore
@testable import NookRenderModel

/// Plans whose scenes carry contract 1.1's `action`/`action_label`: NookCore's planner lays
/// the views out, and the props are added to the scene nodes at the given paths, as nookd
/// passes a node's props through to the scene.
enum ControlFixture {
    struct Mark {
        var action: String
        var label: String?
        var extra: [String: PropValue] = [:]
    }

    /// What nookd sends for `plan`, with `marks` added to the scene nodes at their paths.
    static func wire(_ plan: TransitionPlan, _ marks: [String: Mark]) -> PropValue {
        var dictionary = plan.wireDictionary(sampleRate: nil)
        guard case .dictionary(var scene)? = dictionary["scene"], case .array(let nodes)? = scene["nodes"] else {
            return PropValue.dictionary(dictionary)
        }
        scene["nodes"] = .array(nodes.map { entry in
            guard case .dictionary(var node) = entry, case .string(let path)? = node["path"], let mark = marks[path] else { return entry }
            node["action"] = .string(mark.action)
            if let label = mark.label { node["action_label"] = .string(label) }
            for (key, value) in mark.extra { node[key] = value }
            return .dictionary(node)
        })
        dictionary["scene"] = .dictionary(scene)
        return PropValue.dictionary(dictionary)
    }

    static func marks(_ actions: [String: String]) -> [String: Mark] { actions.mapValues { Mark(action: $0) } }

    /// A presenter at rest on `scene` (the subscribe plan, serial 1) with `marks`.
    static func presenter(showing scene: PlannerScene, _ marks: [String: Mark]) throws -> PlanPresenter {
        var presenter = PlanPresenter()
        try presenter.receive(wire(PlanFixture.subscribe(scene), marks), at: 0)
        return presenter
    }
}
