/// Rule 6: whether two marked nodes show the same view, so the copy can simply move, or
/// different views that must cross-fade inside the moving frame.
///
/// Same view means the same kind, the same custom view name and the same content, ignoring
/// size: the trees match node for node in kind, custom view `name` and `params`, text,
/// timer, symbol, image uri, shape and colour, progress values and style, font weight and
/// digit style. Frames, padding, font size, corner radius, spacing, opacity, classes and
/// marks are size or decoration and are ignored.
enum SameView {
    /// Whether the laid-out nodes at `fromNode` in `old` and `toNode` in `new` show the same
    /// view, found through their parents' indices rather than by parsing their paths.
    /// Takes the layouts and views, not the slots: a mutating caller passes a copy of
    /// whatever it reads from `self`, and a slot is a large value.
    // Inlined, as it was inside content transitions: the descent's first steps then inline too.
    @inline(__always)
    static func matches(_ old: (layout: LayoutResult, root: [ViewNode]), _ fromNode: Int,
                                 _ new: (layout: LayoutResult, root: [ViewNode]), _ toNode: Int) -> Bool {
        // The views are read in place through their arrays.
        // The steps down to each node live on the stack for the call (one pair per element).
        let (oldRoot, newRoot) = (old.root, new.root)
        return old.layout.withSteps(toIndex: fromNode) { fromSteps in
            new.layout.withSteps(toIndex: toNode) { toSteps in
                oldRoot.withUnsafeBufferPointer { before in
                    newRoot.withUnsafeBufferPointer { after in
                        // False when either node is missing.
                        PreparedSlot.descend(before.baseAddress!, along: fromSteps, from: 0) { a in
                            PreparedSlot.descend(after.baseAddress!, along: toSteps, from: 0) { b in SameView.matches(a, b) }
                        }
                    }
                }
            }
        }
    }

    static func matches(_ a: ViewNode, _ b: ViewNode) -> Bool {
        withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in matches(a, b) } }
    }

    /// Reads the trees in place (a view node is a large value).
    static func matches(_ a: UnsafePointer<ViewNode>, _ b: UnsafePointer<ViewNode>) -> Bool {
        guard a.pointee.kind == b.pointee.kind, a.pointee.children.count == b.pointee.children.count,
              sameContent(a, b) else { return false }
        return a.pointee.children.withUnsafeBufferPointer { left in
            b.pointee.children.withUnsafeBufferPointer { right in
                for index in left.indices where !matches(left.baseAddress! + index, right.baseAddress! + index) { return false }
                return true
            }
        }
    }

    /// Reads the props field by field in place (passing `props` would copy the whole struct).
    private static func sameContent(_ a: UnsafePointer<ViewNode>, _ b: UnsafePointer<ViewNode>) -> Bool {
        a.pointee.props.name == b.pointee.props.name
            && a.pointee.props.params == b.pointee.props.params
            && a.pointee.props.text == b.pointee.props.text
            && a.pointee.props.timerEnd == b.pointee.props.timerEnd
            && a.pointee.props.symbol == b.pointee.props.symbol
            && a.pointee.props.uri == b.pointee.props.uri
            && a.pointee.props.shape == b.pointee.props.shape
            && a.pointee.props.color == b.pointee.props.color
            && a.pointee.props.value == b.pointee.props.value
            && a.pointee.props.start == b.pointee.props.start
            && a.pointee.props.end == b.pointee.props.end
            && a.pointee.props.progressStyle == b.pointee.props.progressStyle
            && a.pointee.props.fontWeight == b.pointee.props.fontWeight
            && a.pointee.props.monospacedDigits == b.pointee.props.monospacedDigits
    }
}
