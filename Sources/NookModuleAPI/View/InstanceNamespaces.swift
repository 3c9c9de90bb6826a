import NookCore

/// Gives each instance of a view its own `@Namespace` (SwiftUI's behaviour), in three steps:
///
/// 1. A mark in a per-instance namespace is written `<name>@` (`Namespace.markName`; `@` is
///    not an identifier character, so an unfinished name can never reach the broker as valid).
/// 2. A custom view, once its body is encoded, claims the pending marks of the namespaces it
///    declares (`@Namespace` storage, found by reflection): `<name>@<k>`, where `k` counts the
///    custom-view nodes between the mark and the view's own node.
/// 3. When a slot's root is finalized, `<name>@<k>` becomes `<name>.<hash of the path of that
///    view node>`: the instance's place in the tree, the same on every update. A pending mark
///    no view claimed (a namespace used outside the view declaring it) keeps `<name>`.
enum InstanceNamespaces {
    static let pending = "@"

    /// Step 2 for `view`, whose body encoded to `nodes`.
    static func claim(in nodes: inout [ViewNode], declaredBy view: some NookView) {
        guard nodes.contains(where: hasPending) else { return }
        let declared = Set(Mirror(reflecting: view).children.compactMap { child -> String? in
            guard let label = child.label, label.hasPrefix("_"), let namespace = child.value as? Namespace,
                  namespace.isPerInstance else { return nil }
            return namespace.markName
        })
        guard !declared.isEmpty else { return }
        for index in nodes.indices { claim(&nodes[index], declared: declared, depth: 0) }
    }

    private static func hasPending(_ node: ViewNode) -> Bool {
        if let namespace = node.props.shared?.namespace, namespace.hasSuffix(pending) { return true }
        return node.children.contains(where: hasPending)
    }

    private static func claim(_ node: inout ViewNode, declared: Set<String>, depth: Int) {
        if let namespace = node.props.shared?.namespace, declared.contains(namespace) {
            node.props.shared?.namespace = namespace + String(depth)
        }
        let inner = node.kind == .view ? depth + 1 : depth
        for index in node.children.indices { claim(&node.children[index], declared: declared, depth: inner) }
    }

    /// Step 3 for a slot's root.
    static func resolve(_ root: ViewNode) -> ViewNode {
        guard hasAny(root) else { return root }
        var node = root
        var views: [String] = []
        resolve(&node, path: "0", views: &views)
        return node
    }

    private static func hasAny(_ node: ViewNode) -> Bool {
        if let namespace = node.props.shared?.namespace, namespace.contains(pending) { return true }
        return node.children.contains(where: hasAny)
    }

    private static func resolve(_ node: inout ViewNode, path: String, views: inout [String]) {
        if let namespace = node.props.shared?.namespace, let at = namespace.firstIndex(of: "@") {
            let name = String(namespace[..<at])
            let level = Int(namespace[namespace.index(after: at)...])
            if let level, level >= 0, level < views.count {
                node.props.shared?.namespace = instanceName(name, owner: views[views.count - 1 - level])
            } else {
                node.props.shared?.namespace = name
            }
        }
        if node.kind == .view { views.append(path) }
        for index in node.children.indices { resolve(&node.children[index], path: path + "/" + String(index), views: &views) }
        if node.kind == .view { views.removeLast() }
    }

    /// `<name>.<hash of owner>`, within the identifier length limit.
    static func instanceName(_ name: String, owner: String) -> String {
        let full = name + "." + StableText.fnv1a(owner)
        guard full.utf8.count > Identifier.maxLength else { return full }
        return "ns.h" + StableText.fnv1a(name + "|" + owner)
    }
}
