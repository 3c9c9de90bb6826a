import NookTestSupport
import Testing
@testable import NookCore

/// A renderer's `WireSceneNode` keeps its entry as decoded, not a copy cut out of it: the
/// value's path from `UpdateActivity` to the pixel has one form fewer (docs/architecture.md).
@Suite struct WireSceneNodeStorageTests {
    /// The address of a dictionary's storage: two dictionaries that share it are one form.
    static func storage(_ dictionary: [String: PropValue]) -> UInt {
        unsafeBitCast(dictionary, to: UInt.self)
    }

    /// The entries of `scene.nodes` (or of `scene_delta.upserted`) in a decoded plan's tree.
    static func entries(_ wire: [String: PropValue], scene key: String, nodes: String) -> [[String: PropValue]] {
        guard case .dictionary(let scene)? = wire[key], case .array(let items)? = scene[nodes] else { return [] }
        return items.compactMap { if case .dictionary(let entry) = $0 { entry } else { nil } }
    }

    @Test func eachNodeReadFromAPlanSharesTheDecodedEntrysStorage() throws {
        var checked = 0
        _ = try PlanWireRoundTripTests.randomPlans(20) { _, plan, second in
            for (wire, held, scene, nodes) in [
                (plan.wireDictionary(), nil, "scene", "nodes"),
                (plan.wireDictionary(base: (2, second)), (UInt64(2), second.wireScene), "scene_delta", "upserted"),
            ] as [([String: PropValue], (serial: UInt64, scene: WireScene)?, String, String)] {
                let (decoded, _) = try PlanWireRoundTripTests.decode(wire, held: held)
                let sent = Self.entries(wire, scene: scene, nodes: nodes)
                for entry in sent {
                    guard case .string(let path)? = entry["path"], case .string(let slot)? = entry["slot"] else {
                        Issue.record("an entry without its path or slot")
                        continue
                    }
                    let node = try #require(decoded.scene.nodes.first { $0.path == path && $0.slot == slot })
                    #expect(Self.storage(node.props) == Self.storage(entry), "\(path): its props were copied out of the entry")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    @Test func theSceneKeysInPropsAreLeftOutOfEquality() throws {
        let node = WireSceneNode(slot: "pill", owner: "m", path: "pill/0", kind: "text", rect: Rect(x: 0, y: 0, width: 10, height: 10),
                                 props: ["text": .string("a")])
        var sent = node
        sent.props["slot"] = .string("pill")
        sent.props["index"] = .uint(3)
        #expect(sent == node)
        #expect(sent.hashValue == node.hashValue)
        sent.props["text"] = .string("b")
        #expect(sent != node)
    }
}
