import NookTestSupport
import Testing
@testable import NookCore

private func randomTree(_ rng: inout SeededGenerator, depth: Int = 1) -> ViewNode {
    let kind = NodeKind.allCases.randomElement(using: &rng)!
    var props = NodeProps()
    func maybe() -> Bool { Bool.random(using: &rng) }
    if maybe() { props.width = Double(Int.random(in: 0...400, using: &rng)) / 2 }
    if maybe() { props.padding = EdgeInsets(all: Double(Int.random(in: 0...16, using: &rng))) }
    if maybe() { props.opacity = Double.random(in: 0...1, using: &rng) }
    if maybe() { props.classes = ["group/hero p-2", "shared-[cover] w-20", "hover:opacity-70", "animate-smooth"].randomElement(using: &rng)! }
    if maybe() { props.shared = SharedMark(id: ["cover", "timer.a1", "t-1"].randomElement(using: &rng)!, isSource: maybe()) }
    if maybe() { props.group = ["", "hero"].randomElement(using: &rng)! }
    switch kind {
    case .vstack, .hstack, .zstack:
        props.spacing = Double(Int.random(in: 0...12, using: &rng))
        props.alignment = Alignment.allCases.randomElement(using: &rng)!
    case .text:
        props.text = "12:0\(Int.random(in: 0...9, using: &rng))"
        props.fontSize = 13
    case .image: props.symbol = "folder"
    case .shape:
        props.shape = ShapeKind.allCases.randomElement(using: &rng)!
        props.color = "#112233"
    case .progress: props.value = Double.random(in: 0...1, using: &rng)
    case .spacer: props.minLength = 4
    case .view: props.name = "CoverArt"
    }
    var children: [ViewNode] = []
    if (kind.isStack || kind == .view) && depth < 5 {
        for _ in 0..<Int.random(in: 0...3, using: &rng) { children.append(randomTree(&rng, depth: depth + 1)) }
    }
    return ViewNode(kind: kind, props: props, children: children)
}

@Test func randomValidTreesRoundTripThroughTheWireForm() throws {
    var rng = SeededGenerator(seed: 0x6E6F6F6B)
    var failures: [String] = []
    for round in 0..<300 {
        let tree = randomTree(&rng)
        do {
            let back = try ViewValidator().validate(tree.rawNode, slot: "home")
            if back.root != tree { failures.append("round \(round): changed") }
        } catch {
            failures.append("round \(round): \(error)")
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
}

@Test func randomClassStringsNeverYieldInvalidIdsAndParseDeterministically() {
    let fragments = [
        "shared-[", "]", "group", "/", "hero", ":", "hover", "group-hover", "$", "w-2", "animate-", "smooth",
        "duration-", "40", "[", "ms", " ", "\t", "shared-", "frame", "follower", "a.b", "-", "_", "é",
    ]
    var rng = SeededGenerator(seed: 42)
    var failures: [String] = []
    for _ in 0..<2000 {
        let text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in fragments.randomElement(using: &rng)! }.joined()
        let list = ClassList(parsing: text)
        if list != ClassList(parsing: text) { failures.append("not deterministic: \(text)") }
        if let id = list.shared?.id, !Identifier.isValid(id) { failures.append("bad id from \(text)") }
        if let name = list.shared?.groupName, !Identifier.isValid(name) { failures.append("bad name from \(text)") }
        if let name = list.group?.name, !Identifier.isValid(name) { failures.append("bad group from \(text)") }
        for variant in list.variants {
            for condition in variant.conditions where condition.isGroup {
                if let name = condition.groupName, !Identifier.isValid(name) { failures.append("bad variant from \(text)") }
            }
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
}

@Test func randomTreesResolveNamespacesWithUniqueKeysPerGroup() {
    var rng = SeededGenerator(seed: 7)
    var failures: [String] = []
    for round in 0..<300 {
        let tree = randomTree(&rng)
        let spaces = SlotNamespaces(resolving: tree, slot: "expanded", owner: SlotOwner(module: "m", activity: "a"))
        if spaces != SlotNamespaces(resolving: tree, slot: "expanded", owner: SlotOwner(module: "m", activity: "a")) {
            failures.append("round \(round): not deterministic")
        }
        // Every group-scoped element points at a group node that is one of its ancestors.
        for element in spaces.elements where element.key.namespace == .group {
            guard let group = element.groupPath, element.path.hasPrefix(group + "/") else {
                failures.append("round \(round): \(element.path) resolved to \(element.groupPath ?? "nil")")
                continue
            }
            if !spaces.groups.contains(where: { $0.path == group }) { failures.append("round \(round): unknown group") }
        }
        // Distinct groups never share a namespace key.
        if Set(spaces.groups.map(\.namespaceKey)).count != spaces.groups.count { failures.append("round \(round): shared prefix") }
    }
    #expect(failures.isEmpty, "\(failures.prefix(3))")
}
