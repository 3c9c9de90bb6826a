import FoundationEssentials
import Glibc
import NookCore

/// The controls of one owner in a plan's scene, as `nookctl actions` prints them.
public enum ActionList {
    public struct Control: Hashable, Sendable {
        public var action: String
        /// `action_label`, else the text inside the control, else "".
        public var label: String
        public var slot: String
        public var path: String
    }

    /// Every node of `scene` owned by `owner` that carries an `action`, in scene order.
    public static func controls(in scene: WireScene, owner: String) -> [Control] {
        let nodes = scene.nodes.filter { $0.owner == owner }
        func text(_ node: WireSceneNode, _ key: String) -> String { if case .string(let text)? = node.props[key] { text } else { "" } }
        return nodes.compactMap { node in
            let action = text(node, "action")
            guard !action.isEmpty else { return nil }
            var label = text(node, "action_label")
            if label.isEmpty {
                // Scene paths nest by `/`: the texts below the control, in order.
                label = nodes.filter { $0.slot == node.slot && ($0.path == node.path || $0.path.hasPrefix(node.path + "/")) }
                    .map { text($0, "text") }.filter { !$0.isEmpty }.joined(separator: " ")
            }
            return Control(action: action, label: label, slot: node.slot, path: node.path)
        }
    }

    /// One line per control: action, label (quoted, `-` when none), slot and path, in columns.
    public static func text(_ controls: [Control]) -> String {
        let rows = controls.map { [$0.action, $0.label.isEmpty ? "-" : "\"\($0.label)\"", $0.slot, $0.path] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<3).map { (column: Int) -> String in row[column] + String(repeating: " ", count: max(0, widths[column] - row[column].count)) }.joined(separator: "  ") + "  " + row[3]
        }.joined(separator: "\n") + "\n"
    }
}
