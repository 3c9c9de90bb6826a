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
