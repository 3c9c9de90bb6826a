import NookTestSupport
import Testing

@testable import NookCore

/// `OnePassView`, the checks NookBus's reader applies as it reads a view straight off the
/// message, must pass exactly the views the validator passes without a word: the same typed
/// tree, and the payload bytes `RawNode.estimatedWireBytes` charges. Every view the validator
/// refuses or comments on (an unknown key, an unknown symbol, too many nodes) it must refuse,
/// so the broker reads it again the general way and the validator says what it always said.
@Suite struct OnePassViewTests {
    @Test func passesExactlyTheViewsTheValidatorPassesWithoutAWord() {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_0042)
        var rng = SeededGenerator(seed: seed)
        var passed = 0
        var refused = 0
        for round in 0..<20_000 {
            let raw = OnePassPropsTests.randomNode(&rng, depth: 1)
            for limits in [OnePassPropsTests.limits, .standard] {
                let validated = try? ViewValidator(limits: limits).validate(raw, slot: "expanded")
                var check = OnePassView(limits: limits)
                let read = Self.read(raw, &check, depth: 1)
                if let validated, validated.diagnostics.isEmpty {
                    #expect(read?.root == validated.root, "\(SeededGenerator.replay(seed)) round \(round): \(raw)")
                    #expect(read?.wireBytes == raw.estimatedWireBytes, "\(SeededGenerator.replay(seed)) round \(round): \(raw)")
                    passed += 1
                } else {
                    #expect(read == nil, "\(SeededGenerator.replay(seed)) round \(round): \(raw)")
                    refused += 1
                }
            }
        }
        // Both outcomes are exercised in numbers.
        #expect(passed > 2_000)
        #expect(refused > 2_000)
    }

    @Test func theLimitsCountPerViewAsTheValidatorCounts() {
        let limits = ViewLimits(maxNodes: 3, maxDepth: 2)
        let three = RawNode(kind: "vstack", children: [RawNode(kind: "text"), RawNode(kind: "text")])
        let four = RawNode(kind: "vstack", children: [RawNode(kind: "text"), RawNode(kind: "text"), RawNode(kind: "spacer")])
        let deep = RawNode(kind: "vstack", children: [RawNode(kind: "hstack", children: [RawNode(kind: "text")])])
        for (raw, passes) in [(three, true), (four, false), (deep, false)] {
            var check = OnePassView(limits: limits)
            #expect((Self.read(raw, &check, depth: 1) != nil) == passes, "\(raw)")
            #expect(((try? ViewValidator(limits: limits).validate(raw, slot: "expanded")) != nil) == passes, "\(raw)")
        }
    }

    /// `NodeProps.forEachRawProp` (generated) gives exactly `rawProps`, keys in the wire's
    /// sorted order, so a view written straight from its props is the bytes of its `RawNode`.
    @Test func forEachRawPropIsRawPropsInWireOrder() {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_0043)
        var rng = SeededGenerator(seed: seed)
        var checked = 0
        for _ in 0..<5_000 {
            guard let view = try? ViewValidator().validate(OnePassPropsTests.randomNode(&rng, depth: 1), slot: "expanded").root else { continue }
            var nodes = [view]
            while let node = nodes.popLast() {
                var seen: [(String, PropValue)] = []
                node.props.forEachRawProp { seen.append(($0, $1)) }
                #expect(seen.map(\.0) == node.props.rawProps.keys.sorted(), "\(SeededGenerator.replay(seed))")
                #expect(Dictionary(uniqueKeysWithValues: seen) == node.props.rawProps, "\(SeededGenerator.replay(seed))")
                nodes += node.children
                checked += 1
            }
        }
        #expect(checked > 2_000)
    }

    /// `OnePassView.passes`, what the SDK checks a view it built with before sending it: true
    /// exactly where the validator takes the view's wire form without a word.
    @Test func aBuiltViewPassesExactlyWhenItsWireFormValidatesWithoutAWord() {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_0044)
        var rng = SeededGenerator(seed: seed)
        var views: [ViewNode] = []
        for _ in 0..<3_000 {
            if let view = try? ViewValidator().validate(OnePassPropsTests.randomNode(&rng, depth: 1), slot: "expanded").root { views.append(view) }
        }
        // Views a module could build from typed values that the contract refuses or remarks on.
        func text(_ set: (inout NodeProps) -> Void) -> ViewNode {
            var props = NodeProps()
            props.text = "x"
            set(&props)
            return ViewNode(kind: .text, props: props)
        }
        views += [
            text { $0.width = -1 }, text { $0.opacity = .nan }, text { $0.height = .infinity },
            text { $0.text = String(repeating: "a", count: ViewLimits.standard.maxStringBytes + 1) },
            text { $0.minWidth = 20; $0.maxWidth = 10 }, text { $0.color = "red" }, text { $0.identity = "bad id" },
            text { $0.shared = SharedMark(id: "") },
            { var props = NodeProps(); props.symbol = "no.such.symbol"; return ViewNode(kind: .image, props: props) }(),
            ViewNode(kind: .text, children: [ViewNode(kind: .text)]),
            (0..<40).reduce(ViewNode(kind: .text)) { inner, _ in ViewNode(kind: .vstack, children: [inner]) },
            ViewNode(kind: .vstack, children: Array(repeating: ViewNode(kind: .spacer), count: ViewLimits.standard.maxNodes)),
        ]
        var passed = 0
        for view in views {
            let validated = try? ViewValidator().validate(view.rawNode, slot: "expanded")
            var check = OnePassView(limits: .standard)
            let passes = check.passes(view)
            #expect(passes == (validated?.diagnostics.isEmpty == true), "\(SeededGenerator.replay(seed)): \(view)")
            // What passes, validated, gives itself back: the SDK sends it as it is.
            if passes { #expect(validated?.root == view, "\(SeededGenerator.replay(seed)): \(view)") }
            if passes { passed += 1 }
        }
        #expect(passed > 1_000 && passed < views.count)
    }

    /// What NookBus's reader does with a message, done with a `RawNode`: its props in the
    /// order they come, then its children.
    static func read(_ raw: RawNode, _ check: inout OnePassView, depth: Int) -> ReadView? {
        guard var node = check.node(kind: raw.kind, depth: depth) else { return nil }
        for (name, value) in raw.props {
            guard node.take(name, value) else { return nil }
        }
        var children: [ReadView] = []
        for child in raw.children {
            guard let read = read(child, &check, depth: depth + 1) else { return nil }
            children.append(read)
        }
        return node.finish(children: children)
    }
}
