import NookCore

/// Turns the registry and the presentation into what the layout and the planner take.
public enum SceneAssembler {
    /// The views a presentation shows (SPEC "Presentations").
    public static func content(for state: NookState, registry: Registry) -> SceneContent {
        var content = SceneContent()
        let order = registry.displayOrder
        if let primary = order.first, let activity = registry.activity(primary) {
            content.compactLeading = activity.views[.compactLeading].map { OwnedView(owner: primary.description, view: $0) }
            content.compactTrailing = activity.views[.compactTrailing].map { OwnedView(owner: primary.description, view: $0) }
        } else if let module = registry.compactContentModule, let record = registry.modules[module] {
            content.compactLeading = record.content[.compactLeading].map { OwnedView(owner: module, view: $0) }
            content.compactTrailing = record.content[.compactTrailing].map { OwnedView(owner: module, view: $0) }
        }
        content.minimal = order.dropFirst().compactMap { ref in
            registry.activity(ref)?.views[.minimal].map { OwnedView(owner: ref.description, view: $0) }
        }
        switch state {
        case .hidden, .pill:
            break
        case .peek(let ref):
            content.peek = registry.activity(ref)?.views[.peek].map { OwnedView(owner: ref.description, view: $0) }
        case .expanded(.activity(let ref), _):
            if let view = registry.activity(ref)?.views[.expanded] {
                content.expanded = .activity(OwnedView(owner: ref.description, view: view))
            }
        case .expanded(.home(let module), _):
            if let view = registry.modules[module]?.content[.home] {
                content.expanded = .home(OwnedView(owner: module, view: view))
            }
        case .expanded(.board, _):
            // Widgets in module id order: stable across runs and restarts.
            content.expanded = .board(registry.modules.keys.sorted().compactMap { module in
                registry.modules[module]?.content[.widget].map { OwnedView(owner: module, view: $0) }
            })
        case .companion(let module):
            content.companion = registry.modules[module]?.content[.home].map { OwnedView(owner: module, view: $0) }
        }
        return content
    }
}
