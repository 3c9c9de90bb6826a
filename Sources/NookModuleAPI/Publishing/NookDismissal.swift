import NookCore
/// How an ended activity leaves (`EndActivity`'s `dismissal`): the contract's `Dismissal`
/// (`.default`, the broker's usual policy, or `.immediate`), under the SDK's name.
public typealias NookDismissal = Dismissal

extension Dismissal {
    /// The `options` of `EndActivity(s activity, a{sv} options)`.
    public var endOptions: [String: PropValue] { [EndKey.dismissal.name: .string(rawValue)] }
}
