/// The project-wide path format for nodes and props, in one place.
///
/// A slot's root node is the slot name (`expanded`); each child appends `/<index>`; a prop
/// appends `.<key>`, nested keys `.<key>` again: `expanded/0/2.shared.id`.
public enum NodePath {
    public static func child(_ parent: String, _ index: Int) -> String { parent + "/" + String(index) }
    public static func prop(_ node: String, _ key: String) -> String { node + "." + key }
}
