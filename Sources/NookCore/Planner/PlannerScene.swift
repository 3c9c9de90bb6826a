/// One side of a transition, ready to plan with: the presentation, the content it shows, the
/// geometry `SceneGeometry` gives it, and each slot's view with its resolved namespaces.
///
/// Preparing a scene costs one layout and one namespace walk per slot. The broker keeps the
/// destination of each plan (`TransitionPlan.scene`) and passes it as the origin of the next,
/// so each plan prepares only its new side.
///
/// ```swift
/// let pill = PlannerScene(presentation: .pill, content: content, settings: settings)
/// let home = PlannerScene(presentation: .expanded, content: opened, settings: settings)
/// let plan = TransitionPlanner.plan(from: pill, to: home, action: PlanAction(cause: .open, serial: 2), settings: settings)
/// ```
public struct PlannerScene: Hashable, Sendable {
    /// The scene's parts live in one shared box (as `PreparedSlot`'s do): a plan copies its
    /// two scenes several times (the builder, the destination, the plan), and each copy of
    /// the parts retained every array and string of the content and layout.
    private final class Storage: @unchecked Sendable {
        // Mutated only through `PlannerScene`'s setters, after `isKnownUniquelyReferenced`,
        // so no access can overlap another (the runtime's exclusivity checks are left out).
        @exclusivity(unchecked) var presentation: Presentation
        @exclusivity(unchecked) var content: SceneContent
        @exclusivity(unchecked) var layout: SceneLayout
        @exclusivity(unchecked) var slots: [PreparedSlot]
        @exclusivity(unchecked) var suppressed: Set<String>

        init(presentation: Presentation, content: SceneContent, layout: SceneLayout, slots: [PreparedSlot], suppressed: Set<String>) {
            self.presentation = presentation
            self.content = content
            self.layout = layout
            self.slots = slots
            self.suppressed = suppressed
        }

        func copy() -> Storage {
            Storage(presentation: presentation, content: content, layout: layout, slots: slots, suppressed: suppressed)
        }
    }

    private var storage: Storage

    /// The storage, unshared first, for a setter.
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    public var presentation: Presentation {
        _read { yield storage.presentation }
        set { unique.presentation = newValue }
        _modify { yield &unique.presentation }
    }
    public var content: SceneContent {
        _read { yield storage.content }
        set { unique.content = newValue }
        _modify { yield &unique.content }
    }
    public var layout: SceneLayout {
        _read { yield storage.layout }
        set { unique.layout = newValue }
        _modify { yield &unique.layout }
    }
    /// One per `layout.slots`, in the same order.
    public var slots: [PreparedSlot] {
        _read { yield storage.slots }
        set { unique.slots = newValue }
        _modify { yield &unique.slots }
    }
    /// Paths of nodes a renderer must not draw (nor anything inside them): the pill copies of
    /// elements the peek shows, for as long as the pill peeks (rule 10). The planner fills it
    /// in for each plan's destination; the wire form marks those nodes `suppressed`.
    public var suppressed: Set<String> {
        _read { yield storage.suppressed }
        set { unique.suppressed = newValue }
        _modify { yield &unique.suppressed }
    }

    public static func == (lhs: PlannerScene, rhs: PlannerScene) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.presentation == rhs.presentation && lhs.content == rhs.content && lhs.layout == rhs.layout
            && lhs.slots == rhs.slots && lhs.suppressed == rhs.suppressed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(presentation)
        hasher.combine(content)
        hasher.combine(layout)
        hasher.combine(slots)
        hasher.combine(suppressed)
    }

    public init(presentation: Presentation, content: SceneContent, settings: PlannerSettings) {
        self.init(
            presentation: presentation, content: content, display: settings.display, geometry: settings.geometry,
            namedRules: settings.namedRules, layoutRules: settings.layoutRules, text: settings.textMeasurement, reusing: [])
    }

    /// Prepares a scene, reusing the resolved namespaces of any slot that `reusing` already
    /// holds with the same name, owner and view (namespaces depend on nothing else), so a
    /// broker that keeps its recent scenes only lays out what it shows again.
    public init(presentation: Presentation, content: SceneContent, settings: PlannerSettings, reusing: [PlannerScene]) {
        self.init(
            presentation: presentation, content: content, display: settings.display, geometry: settings.geometry,
            namedRules: settings.namedRules, layoutRules: settings.layoutRules, text: settings.textMeasurement, reusing: reusing)
    }

    public init(
        presentation: Presentation, content: SceneContent, display: DisplayInfo, geometry: GeometryTokens,
        namedRules: [String: String] = [:], reusing: [PlannerScene] = []
    ) {
        self.init(
            presentation: presentation, content: content, display: display, geometry: geometry, namedRules: namedRules,
            layoutRules: NamedLayoutRules(namedRules), reusing: reusing)
    }

    init(
        presentation: Presentation, content: SceneContent, display: DisplayInfo, geometry: GeometryTokens,
        namedRules: [String: String], layoutRules: NamedLayoutRules, text: TextMeasurement = .estimate, reusing: [PlannerScene]
    ) {
        var layout = SceneGeometry.layout(
            display: display, tokens: geometry, presentation: presentation, content: content, rules: layoutRules, text: text)
        var prepared: [PreparedSlot] = []
        prepared.reserveCapacity(layout.slots.count)
        // Slots and views are read in place (a copy of either retains every array and string
        // in it); each is copied once, into its prepared slot.
        for at in layout.slots.indices {
            let view = Self.view(for: layout.slots[at], in: content, presentation: presentation) ?? ViewNode(kind: .zstack)
            var known: PreparedSlot? = nil
            for scene in reusing where known == nil {
                known = scene.slots.first {
                    $0.laidOut.slot == layout.slots[at].slot && $0.laidOut.owner == layout.slots[at].owner
                        && $0.withRoot { $0.pointee == view }
                }
            }
            if let known {
                prepared.append(PreparedSlot(laidOut: layout.slots[at], view: view, owner: known.owner, namespaces: known.namespaces))
            } else {
                prepared.append(PreparedSlot(laidOut: layout.slots[at], view: view, namedRules: namedRules))
            }
        }
        // Followers take their sources' geometry (seed 001); the scene's layout says so too.
        for index in prepared.indices where prepared[index].namespaces.elements.contains(where: { !$0.isSource }) {
            FollowerTracking.apply(to: &prepared[index], rules: layoutRules, text: text)
            if let at = layout.slots.firstIndex(where: { $0.slot == prepared[index].laidOut.slot && $0.owner == prepared[index].laidOut.owner }) {
                layout.slots[at] = prepared[index].laidOut
            }
        }
        storage = Storage(presentation: presentation, content: content, layout: layout, slots: prepared, suppressed: [])
    }

    /// The view `SceneGeometry` laid out into `slot`.
    static func view(for slot: LaidOutSlot, in content: SceneContent, presentation: Presentation) -> ViewNode? {
        switch slot.slot {
        case .compactLeading: return content.compactLeading?.view
        case .compactTrailing: return content.compactTrailing?.view
        case .minimal: return content.minimal.first { $0.owner == slot.owner }?.view
        case .peek: return content.peek?.view
        case .expanded:
            if case .activity(let owned)? = content.expanded { return owned.view }
            return nil
        case .home:
            if presentation == .companion { return content.companion?.view }
            if case .home(let owned)? = content.expanded { return owned.view }
            return nil
        case .widget:
            if case .board(let widgets)? = content.expanded { return widgets.first { $0.owner == slot.owner }?.view }
            return nil
        }
    }

    /// The contract's `from_content` / `to_content` string for this scene.
    public var contentDescription: String {
        switch presentation {
        case .hidden, .pill:
            return ""
        case .peek:
            return content.peek.map { "activity:" + $0.owner } ?? ""
        case .companion:
            return content.companion.map { "home:" + SlotOwner(parsing: $0.owner).module } ?? ""
        case .expanded:
            switch content.expanded {
            case .activity(let owned)?: return "activity:" + owned.owner
            case .home(let owned)?: return "home:" + SlotOwner(parsing: owned.owner).module
            case .board?: return "board"
            case nil: return ""
            }
        }
    }

    /// The slot with this name and owner.
    public func slot(_ name: SlotName, owner: String) -> PreparedSlot? {
        slots.first { $0.laidOut.slot == name && $0.laidOut.owner == owner }
    }

    /// Every node of the scene, laid out, in slot order then preorder (the plan's `scene.nodes`).
    public var nodes: [SceneNode] {
        var out: [SceneNode] = []
        out.reserveCapacity(slots.reduce(0) { $0 + $1.laidOut.layout.count })
        for slot in slots {
            var index = 0
            let (laidOut, namespaces) = (slot.laidOut, slot.namespaces)
            slot.collect(slot.view, path: laidOut.layout.rootPath, laidOut: laidOut, namespaces: namespaces, index: &index, into: &out)
        }
        return out
    }
}

/// One slot of a prepared scene.
public struct PreparedSlot: Hashable, Sendable {
    /// The slot's parts live in one shared box, so copying a slot (the planner reads slots out
    /// of scenes many times per plan) retains one reference, not every array and string in
    /// its layout, view and namespaces. Setters copy the box first unless it is unshared.
    private final class Storage: @unchecked Sendable {
        // Mutated only through `PreparedSlot`'s setters, after `isKnownUniquelyReferenced`,
        // so no access can overlap another: the runtime's exclusivity checks (a call per
        // access, thousands per plan) are left out.
        @exclusivity(unchecked) var laidOut: LaidOutSlot
        /// The slot's view, held in a one-element array so walks can read it in place through
        /// the array's buffer (a view node is a large value; see `withNode`).
        @exclusivity(unchecked) var view: [ViewNode]
        @exclusivity(unchecked) var owner: SlotOwner
        @exclusivity(unchecked) var namespaces: SlotNamespaces

        init(laidOut: LaidOutSlot, view: [ViewNode], owner: SlotOwner, namespaces: SlotNamespaces) {
            self.laidOut = laidOut
            self.view = view
            self.owner = owner
            self.namespaces = namespaces
        }
    }

    private var storage: Storage

    /// The storage, unshared first, for a setter.
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) {
                storage = Storage(laidOut: storage.laidOut, view: storage.view, owner: storage.owner, namespaces: storage.namespaces)
            }
            return storage
        }
    }

    public var laidOut: LaidOutSlot {
        _read { yield storage.laidOut }
        set { unique.laidOut = newValue }
        _modify { yield &unique.laidOut }
    }
    public var view: ViewNode {
        _read { yield storage.view[0] }
        set { unique.view[0] = newValue }
        _modify { yield &unique.view[0] }
    }
    public var owner: SlotOwner {
        _read { yield storage.owner }
        set { unique.owner = newValue }
        _modify { yield &unique.owner }
    }
    public var namespaces: SlotNamespaces {
        _read { yield storage.namespaces }
        set { unique.namespaces = newValue }
        _modify { yield &unique.namespaces }
    }

    public init(laidOut: LaidOutSlot, view: ViewNode, namedRules: [String: String] = [:]) {
        let owner = SlotOwner(parsing: laidOut.owner)
        let namespaces = SlotNamespaces(resolving: view, slot: laidOut.rootPath, owner: owner, namedRules: namedRules,
                                        nodeCount: laidOut.layout.count)
        storage = Storage(laidOut: laidOut, view: [view], owner: owner, namespaces: namespaces)
    }

    init(laidOut: LaidOutSlot, view: ViewNode, owner: SlotOwner, namespaces: SlotNamespaces) {
        storage = Storage(laidOut: laidOut, view: [view], owner: owner, namespaces: namespaces)
    }

    public static func == (lhs: PreparedSlot, rhs: PreparedSlot) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.laidOut == rhs.laidOut && lhs.storage.view == rhs.storage.view && lhs.owner == rhs.owner
            && lhs.namespaces == rhs.namespaces
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(laidOut)
        hasher.combine(storage.view)
        hasher.combine(owner)
        hasher.combine(namespaces)
    }

    public var name: SlotName { laidOut.slot }
    public var rootPath: String { laidOut.rootPath }
    /// Slot name plus owner: what stays the same when a slot stays on screen.
    var identity: SlotIdentity { SlotIdentity(slot: laidOut.slot, owner: laidOut.owner) }

    /// The laid-out rect of the node at `path`.
    public func rect(at path: String) -> Rect? { laidOut.layout.rect(at: path) }

    /// The view node at `path`, or nil when the path is not in this slot.
    public func node(at path: String) -> ViewNode? { withNode(at: path) { $0.pointee } }

    /// Calls `body` with the view node at `path`, read in place (a view node is a large
    /// value); nil when the path is not in this slot.
    func withNode<R>(at path: String, _ body: (UnsafePointer<ViewNode>) -> R) -> R? {
        // The layout's root path is `rootPath`, already built (building it costs a string).
        let root = laidOut.layout.rootPath
        guard Self.path(path, startsWith: root) else { return nil }
        let rest = path.utf8.dropFirst(root.utf8.count)
        var steps: [Int] = []
        if !rest.isEmpty {
            guard rest.first == UInt8(ascii: "/") else { return nil }
            var number = -1
            for byte in rest.dropFirst() {
                if byte == UInt8(ascii: "/") {
                    guard number >= 0 else { return nil }
                    steps.append(number)
                    number = -1
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    // Paths reach here from renderers too (`Render.Activate`): a child position
                    // beyond any view's node count names nothing, and must not wrap negative.
                    guard number <= Self.maxChildPosition else { return nil }
                    number = max(number, 0) &* 10 &+ Int(byte - UInt8(ascii: "0"))
                } else {
                    return nil
                }
            }
            guard number >= 0 else { return nil }
            steps.append(number)
        }
        return withRoot { Self.descend($0, steps[...], body) }
    }

    /// Above any child position a validated view has (`ViewLimits.maxNodes` is far lower),
    /// so parsing stops before the number could overflow.
    static let maxChildPosition = 100_000_000


    /// Asks `body` about the node reached from `node` by `steps[position...]`; false when a
    /// step names no child. A yes/no question, not generic: the generic form, wrapping its
    /// answer in an optional at every level, cost about 300 instructions more a pair in
    /// element matching.
    static func descend(_ node: UnsafePointer<ViewNode>, along steps: UnsafeBufferPointer<Int>, from position: Int,
                        _ body: (UnsafePointer<ViewNode>) -> Bool) -> Bool {
        guard position < steps.count else { return body(node) }
        return node.pointee.children.withUnsafeBufferPointer { children in
            guard steps[position] >= 0, steps[position] < children.count else { return false }
            return descend(children.baseAddress! + steps[position], along: steps, from: position + 1, body)
        }
    }

    /// The one-element array holding the slot's view, for reading two slots' views in place
    /// together without capturing either slot.
    var rootStorage: [ViewNode] { storage.view }

    /// Calls `body` with the node reached from `node` by `steps` (child positions); nil when
    /// a step names no child.
    static func descend<R>(_ node: UnsafePointer<ViewNode>, by steps: ArraySlice<Int>,
                           _ body: (UnsafePointer<ViewNode>) -> R) -> R? {
        guard let first = steps.first else { return body(node) }
        return node.pointee.children.withUnsafeBufferPointer { children in
            guard first < children.count else { return nil }
            return descend(children.baseAddress! + first, by: steps.dropFirst(), body)
        }
    }

    /// `path.hasPrefix(root)`, comparing bytes when both are ASCII and the prefix ends at a
    /// `/` or the end (every byte is then one `Character`, so the answers agree).
    static func path(_ path: String, startsWith root: String) -> Bool {
        let bytes = path.utf8
        let prefix = root.utf8
        // Canonically equivalent strings may differ in length, so a short path still asks.
        guard bytes.count >= prefix.count else { return path.hasPrefix(root) }
        var index = bytes.startIndex
        var ascii = true
        for byte in prefix {
            guard bytes[index] == byte else { return path.hasPrefix(root) }
            ascii = ascii && byte < 0x80
            index = bytes.index(after: index)
        }
        let boundary = index == bytes.endIndex || bytes[index] == UInt8(ascii: "/")
        return ascii && boundary ? true : path.hasPrefix(root)
    }

    /// Calls `body` with the root view node, read in place.
    func withRoot<R>(_ body: (UnsafePointer<ViewNode>) -> R) -> R {
        storage.view.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func descend<R>(_ node: UnsafePointer<ViewNode>, _ steps: ArraySlice<Int>,
                                   _ body: (UnsafePointer<ViewNode>) -> R) -> R? {
        guard let first = steps.first else { return body(node) }
        return node.pointee.children.withUnsafeBufferPointer { children in
            guard first < children.count else { return nil }
            return descend(children.baseAddress! + first, steps.dropFirst(), body)
        }
    }

    /// The slot's nodes as the scene reports them (its part of `PlannerScene.nodes`).
    var sceneNodes: [SceneNode] {
        var out: [SceneNode] = []
        out.reserveCapacity(laidOut.layout.count)
        var index = 0
        let (laidOut, namespaces) = (laidOut, namespaces)
        collect(view, path: laidOut.layout.rootPath, laidOut: laidOut, namespaces: namespaces, index: &index, into: &out)
        return out
    }

    /// Appends the scene nodes of `node`'s subtree; `path` is `node`'s, the wire's paths are
    /// built here, one append per node.
    /// `laidOut` and `namespaces` are the slot's, read out of its storage once by the caller.
    fileprivate func collect(_ node: ViewNode, path: String, laidOut: LaidOutSlot, namespaces: SlotNamespaces, index: inout Int,
                             into out: inout [SceneNode]) {
        let rect = laidOut.layout.rect(atIndex: index)
        index += 1
        out.append(
            SceneNode(
                slot: laidOut.slot, owner: laidOut.owner, path: path, kind: node.kind, rect: rect,
                props: node.props, variants: namespaces.variants.isEmpty ? [] : namespaces.variants[path] ?? [],
                expandedClasses: namespaces.expandedClasses.isEmpty ? nil : namespaces.expandedClasses[path]))
        for child in node.children.indices {
            var childPath = path
            NodePath.appendChild(child, to: &childPath)
            collect(node.children[child], path: childPath, laidOut: laidOut, namespaces: namespaces, index: &index, into: &out)
        }
    }
}

/// A slot's name and owner.
struct SlotIdentity: Hashable, Sendable {
    var slot: SlotName
    var owner: String
}

/// One node of the destination scene as the plan reports it: a laid-out node with its slot,
/// owner, path and typed props. Its own type, not a `ViewNode`, because a plan names each node
/// by where it sits in the whole scene and carries its frame; the tape encodes it for the wire.
public struct SceneNode: Hashable, Sendable {
    public var slot: SlotName
    public var owner: String
    public var path: String
    public var kind: NodeKind
    public var rect: Rect
    public var props: NodeProps
    /// Group variants resolved to their group nodes (rule 23).
    public var variants: [ResolvedVariant] = []
    /// The node's classes with the theme's named rules expanded, when they name one (rule 24).
    public var expandedClasses: String?
}

extension SlotOwner {
    /// `music` -> module `music`; `music/song` -> module `music`, activity `song`.
    public init(parsing owner: String) {
        // ASCII (as valid module and activity ids are): the '/' byte is found without
        // grapheme breaking (a `Character` search cost about 3,000 instructions an owner).
        // Read in place and cut by byte offsets: slicing the string by index and converting
        // each part (`String(owner[..<slash])`) cost about 1,400 instructions an owner.
        let parts: (module: String, activity: String?)?? = owner.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return (owner, nil) }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self))
        }
        if let parts = parts ?? nil {
            self.init(module: parts.module, activity: parts.activity)
            return
        }
        let utf8 = owner.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            if let slash = utf8.firstIndex(of: UInt8(ascii: "/")) {
                self.init(module: String(owner[..<slash]), activity: String(owner[utf8.index(after: slash)...]))
            } else {
                self.init(module: owner)
            }
        } else if let slash = owner.firstIndex(of: "/") {
            self.init(module: String(owner[..<slash]), activity: String(owner[owner.index(after: slash)...]))
        } else {
            self.init(module: owner)
        }
    }
}
