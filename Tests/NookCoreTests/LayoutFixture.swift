@testable import NookCore

/// Terse builders for layout tests (namespaced so other suites' helpers never clash).
enum LayoutFixture {
    static func node(_ kind: NodeKind, _ children: [ViewNode] = [], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        var props = NodeProps()
        configure(&props)
        return ViewNode(kind: kind, props: props, children: children)
    }

    static func hstack(_ children: [ViewNode], spacing: Double? = nil, alignment: Alignment? = nil,
                       _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.hstack, children) { $0.spacing = spacing; $0.alignment = alignment; configure(&$0) }
    }

    static func vstack(_ children: [ViewNode], spacing: Double? = nil, alignment: Alignment? = nil,
                       _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.vstack, children) { $0.spacing = spacing; $0.alignment = alignment; configure(&$0) }
    }

    static func zstack(_ children: [ViewNode], alignment: Alignment? = nil,
                       _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.zstack, children) { $0.alignment = alignment; configure(&$0) }
    }

    static func text(_ string: String, size: Double = 10, _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.text) { $0.text = string; $0.fontSize = size; configure(&$0) }
    }

    /// A custom view with a fixed frame: the simplest rigid child.
    static func box(_ width: Double, _ height: Double, _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        node(.view) { $0.width = width; $0.height = height; configure(&$0) }
    }

    static func spacer(min: Double? = nil) -> ViewNode { node(.spacer) { $0.minLength = min } }
    static func shape() -> ViewNode { node(.shape) { $0.shape = .roundedRect } }
    static func image() -> ViewNode { node(.image) { $0.symbol = "music.note" } }

    static func layout(_ root: ViewNode, width: Double? = nil, height: Double? = nil, path: String = "root") -> LayoutResult {
        LayoutEngine.layout(root, rootPath: path, proposal: ProposedSize(width: width, height: height))
    }

    /// Equal within `Geometry.epsilon` (text advances are not exact binary fractions).
    static func close(_ actual: Rect?, _ expected: Rect) -> Bool {
        guard let actual else { return false }
        return actual.isClose(to: expected)
    }

    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: x, y: y, width: width, height: height)
    }
}
