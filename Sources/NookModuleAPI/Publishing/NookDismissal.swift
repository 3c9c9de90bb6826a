/// How an ended activity leaves (`EndActivity`'s `dismissal`).
public enum NookDismissal: String, Hashable, Sendable, CaseIterable {
    /// The broker's usual policy.
    case `default`
    /// At once.
    case immediate

    /// The `options` of `EndActivity(s activity, a{sv} options)`.
    public var endOptions: [String: PropValue] { [ActivityKey.dismissal: .string(rawValue)] }
}
