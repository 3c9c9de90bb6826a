extension ViewNode {
    /// The wire-shaped form of this tree: the inverse of `ViewValidator.validate`.
    ///
    /// Only props that are set are written, with the contract's keys and types, so validating
    /// the result gives back an equal `ViewNode` (the SDK builds views this way and the codec
    /// sends them). Default `shared` options are written too, so the mark reads fully on the wire.
    public var rawNode: RawNode {
        RawNode(kind: kind.rawValue, props: props.rawProps, children: children.map(\.rawNode))
    }
}

extension NodeProps {
    /// The props as contract keys and D-Bus-shaped values (`rawProps(reservingRoomFor:)` is
    /// generated from data/contract.json; `PropValue.contract` below gives each type's shape).
    public var rawProps: [String: PropValue] { rawProps(reservingRoomFor: 0) }
}

/// A prop's value as the contract writes it, by its Swift type.
extension PropValue {
    static func contract(_ value: Double) -> PropValue { .double(value) }
    static func contract(_ value: String) -> PropValue { .string(value) }
    static func contract(_ value: Bool) -> PropValue { .bool(value) }
    static func contract(_ value: Int64) -> PropValue { .int(value) }
    static func contract(_ value: Int) -> PropValue { .int(Int64(value)) }
    static func contract<E: RawRepresentable>(_ value: E) -> PropValue where E.RawValue == String { .string(value.rawValue) }
    static func contract(_ value: [String: PropValue]) -> PropValue { .dictionary(value) }
    static func contract(_ value: [String: Bool]) -> PropValue { .dictionary(value.mapValues(PropValue.bool)) }

    static func contract(_ padding: EdgeInsets) -> PropValue {
        .structure([.double(padding.top), .double(padding.leading), .double(padding.bottom), .double(padding.trailing)])
    }

    static func contract(_ shared: SharedMark) -> PropValue {
        .dictionary([
            "id": .string(shared.id), "style": .string(shared.style.rawValue),
            "namespace": .string(shared.namespace), "properties": .string(shared.properties.rawValue),
            "anchor": .string(shared.anchor.rawValue), "is_source": .bool(shared.isSource),
        ])
    }
}
