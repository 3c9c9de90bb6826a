/// Turns the wire's loosely typed `RawNode` into a typed `ViewNode`, or refuses it.
///
/// Contract: every prop is checked against CONTRACT.md's table for its kind (type, range,
/// charset, length); the tree against `limits` (node count, depth). The first violation
/// throws a `ViewValidationError` naming its path (`expanded/0/2.shared.id`) and rule. Keys
/// this broker does not know are ignored with an info `unknown-key` diagnostic, so modules
/// written for a newer contract keep working. Class strings are kept verbatim here; the
/// class parser reads them later (its problems are diagnostics, never errors).
///
/// ```swift
/// let view = try ViewValidator().validate(raw, slot: "expanded")
/// layout(view.root); report(view.diagnostics)
/// ```
public struct ViewValidator: Sendable {
    public var limits: ViewLimits
    /// False reads every node the ordered way only (`NodePropsReader.read`): what tests compare
    /// the one-pass reading with.
    var readsInOnePass = true

    public init(limits: ViewLimits = .standard) { self.limits = limits }

    /// Validates one slot's tree.
    /// - Parameters:
    ///   - raw: the tree as NookBus decoded it.
    ///   - slot: the slot name, used as the root's path (`compact_leading`, `expanded`, ...).
    /// - Returns: the typed tree, and the info diagnostics validation wants the module to know
    ///   (`unknown-key` for props this broker does not know and ignored).
    /// - Throws: `ViewValidationError` for the first broken rule.
    public func validate(_ raw: RawNode, slot: String) throws(ViewValidationError) -> (root: ViewNode, diagnostics: [Diagnostic]) {
        var walk = Walk(limits: limits, readsInOnePass: readsInOnePass)
        let root = try walk.node(raw, path: slot, depth: 1)
        return (root, walk.diagnostics)
    }
}

extension ViewValidator {
    // `commonKeys`, `kindKeys` and `sharedKeys` are generated from data/contract.json.

    /// The keys each kind reads, as `PropKey` bits (indexed like `NodeKind.allCases`).
    static let knownMasks: [UInt64] = NodeKind.allCases.map { PropKeySet.mask(commonKeys.union(kindKeys[$0] ?? [])) }
    static let sharedMask = PropKeySet.mask(sharedKeys)

    /// `NodeKind(rawValue:)` without its linear search: the length and first byte pick the
    /// kind, one comparison confirms.
    static func kind(named name: String) -> NodeKind? {
        let utf8 = name.utf8
        guard let first = utf8.first else { return nil }
        let kind: NodeKind
        switch utf8.count {
        case 4: kind = first == UInt8(ascii: "t") ? .text : .view
        case 5: kind = first == UInt8(ascii: "i") ? .image : .shape
        case 6:
            switch first {
            case UInt8(ascii: "v"): kind = .vstack
            case UInt8(ascii: "h"): kind = .hstack
            case UInt8(ascii: "z"): kind = .zstack
            default: kind = .spacer
            }
        case 8: kind = .progress
        default: return nil
        }
        return name == kind.rawValue ? kind : nil
    }

    static func knownMask(_ kind: NodeKind) -> UInt64 {
        switch kind {
        case .vstack: knownMasks[0]
        case .hstack: knownMasks[1]
        case .zstack: knownMasks[2]
        case .text: knownMasks[3]
        case .image: knownMasks[4]
        case .shape: knownMasks[5]
        case .progress: knownMasks[6]
        case .spacer: knownMasks[7]
        case .view: knownMasks[8]
        }
    }
}

/// One validation pass: counts nodes and collects diagnostics as it goes.
private struct Walk {
    let limits: ViewLimits
    let readsInOnePass: Bool
    var nodeCount = 0
    var diagnostics: [Diagnostic] = []

    init(limits: ViewLimits, readsInOnePass: Bool) {
        self.limits = limits
        self.readsInOnePass = readsInOnePass
    }

    mutating func node(_ raw: RawNode, path: String, depth: Int) throws(ViewValidationError) -> ViewNode {
        nodeCount += 1
        if nodeCount > limits.maxNodes {
            throw ViewValidationError(
                path: path, code: .tooManyNodes, message: "the view has more than \(limits.maxNodes) nodes")
        }
        if depth > limits.maxDepth {
            throw ViewValidationError(
                path: path, code: .tooDeep, message: "nodes nest deeper than \(limits.maxDepth) levels")
        }
        guard let kind = ViewValidator.kind(named: raw.kind) else {
            let known = NodeKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ViewValidationError(
                path: path, code: .unknownKind, message: "unknown node kind \"\(InputQuote.text(raw.kind))\" (known: \(known))")
        }
        let props: NodeProps
        if readsInOnePass,
            let read = NodePropsReader.readInOnePass(raw.props, kind: kind, path: path, limits: limits, diagnostics: &diagnostics)
        {
            props = read
        } else {
            // Something is wrong (or the caller asked): the ordered reading names it.
            let present = PropKeySet(raw.props)
            for key in present.keys(notIn: ViewValidator.knownMask(kind)) {
                diagnostics.append(NodePropsReader.unknownPropDiagnostic(key, kind: kind, path: path))
            }
            let reader = NodePropsReader(props: raw.props, present: present, path: path, limits: limits)
            props = try reader.read(kind: kind, diagnostics: &diagnostics)
        }

        if !raw.children.isEmpty && !(kind.isStack || kind == .view) {
            throw ViewValidationError(
                path: path, code: .unexpectedChildren,
                message: "a \(kind.rawValue) node draws no children but has \(raw.children.count)")
        }
        var children: [ViewNode] = []
        children.reserveCapacity(raw.children.count)
        for (index, child) in raw.children.enumerated() {
            children.append(try node(child, path: NodePath.child(path, index), depth: depth + 1))
        }
        return ViewNode(kind: kind, props: props, children: children)
    }
}
