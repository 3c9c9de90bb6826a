import NookCore

/// A plan node's props read by the contract's keys (data/contract.json), so the renderer
/// writes no key's name: `props[.value]`, `props[scene: .suppressed]`. A misspelt key does
/// not compile.
extension Dictionary where Key == String, Value == PropValue {
    subscript(key: PropKey) -> PropValue? {
        get { self[key.name] }
        set { self[key.name] = newValue }
    }

    subscript(scene key: SceneKey) -> PropValue? { self[key.name] }
}
