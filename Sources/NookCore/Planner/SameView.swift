/// Rule 6: whether two marked nodes show the same view, so the copy can simply move, or
/// different views that must cross-fade inside the moving frame.
///
/// Same view means the same kind, the same custom view name and the same content, ignoring
/// size: the trees match node for node in kind, custom view `name` and `params`, text,
/// timer, symbol, image uri, shape and colour, progress values and style, font weight and
/// digit style. Frames, padding, font size, corner radius, spacing, opacity, classes and
/// marks are size or decoration and are ignored.
enum SameView {
    /// The nodes at `fromPath` in `old` and `toPath` in `new`, read in place; false when
    /// either path names no node. Static, so callers' state is never captured (or copied).
    static func matches(_ old: PreparedSlot, _ fromPath: String, _ new: PreparedSlot, _ toPath: String) -> Bool {
        old.withNode(at: fromPath) { a in new.withNode(at: toPath) { b in matches(a, b) } ?? false } ?? false
    }

    static func matches(_ a: ViewNode, _ b: ViewNode) -> Bool {
        withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in matches(a, b) } }
    }

    /// Reads the trees in place (a view node is a large value).
    static func matches(_ a: UnsafePointer<ViewNode>, _ b: UnsafePointer<ViewNode>) -> Bool {
        guard a.pointee.kind == b.pointee.kind, a.pointee.children.count == b.pointee.children.count,
              sameContent(a.pointee.props, b.pointee.props) else { return false }
        return a.pointee.children.withUnsafeBufferPointer { left in
            b.pointee.children.withUnsafeBufferPointer { right in
                for index in left.indices where !matches(left.baseAddress! + index, right.baseAddress! + index) { return false }
                return true
            }
        }
    }

    private static func sameContent(_ a: borrowing NodeProps, _ b: borrowing NodeProps) -> Bool {
        a.name == b.name && a.params == b.params && a.text == b.text && a.timerEnd == b.timerEnd && a.symbol == b.symbol
            && a.uri == b.uri && a.shape == b.shape && a.color == b.color && a.value == b.value && a.start == b.start
            && a.end == b.end && a.progressStyle == b.progressStyle && a.fontWeight == b.fontWeight
            && a.monospacedDigits == b.monospacedDigits
    }
}
