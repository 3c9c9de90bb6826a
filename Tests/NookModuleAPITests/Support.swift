import Testing
import NookCore
@testable import NookModuleAPI

// Helpers shared by the suites: wire-shaped expectations and a validation round trip.

/// A node as CONTRACT writes it: kind, props by contract key, children.
func node(_ kind: String, _ props: [String: PropValue] = [:], _ children: [RawNode] = []) -> RawNode {
    RawNode(kind: kind, props: props, children: children)
}

/// The `shared` a{sv} with every option spelled out, as the SDK sends it.
func sharedProps(
    _ id: String, style: String = "resize", namespace: String = "", properties: String = "frame",
    anchor: String = "center", isSource: Bool = true
) -> PropValue {
    .dictionary([
        "id": .string(id), "style": .string(style), "namespace": .string(namespace),
        "properties": .string(properties), "anchor": .string(anchor), "is_source": .bool(isSource),
    ])
}

func padding(_ top: Double, _ leading: Double, _ bottom: Double, _ trailing: Double) -> PropValue {
    .structure([.double(top), .double(leading), .double(bottom), .double(trailing)])
}

/// Encodes `view` to one wire-shaped node and checks the broker's validator accepts it with
/// no diagnostics and reads back the very tree the SDK built.
func wire(_ view: some NookView, slot: String = "expanded", sourceLocation: SourceLocation = #_sourceLocation) throws
    -> RawNode
{
    let built = view.viewNode
    let raw = built.rawNode
    let validated = try ViewValidator().validate(raw, slot: slot)
    #expect(validated.diagnostics.isEmpty, "validator diagnostics: \(validated.diagnostics)", sourceLocation: sourceLocation)
    #expect(validated.root == built, "validation changed the tree", sourceLocation: sourceLocation)
    return raw
}

/// The wire-shaped nodes of a view that may yield several.
func wireNodes(_ view: some NookView) -> [RawNode] { view.viewNodes.map(\.rawNode) }
