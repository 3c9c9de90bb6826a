import NookCore
/// A caller namespace for `.twShared`: the SDK's counterpart of SwiftUI's `@Namespace`.
///
/// Elements marked with the same id in the same namespace match within one slot's view (the
/// broker keys them `<owner>/<slot>/ns:<name>/<id>`). A namespace is sent as the mark's
/// `namespace`, a valid identifier (SPEC rule 1).
///
/// - `@Namespace var hero` in a view struct, as in SwiftUI: each instance of the view has its
///   own namespace, so two cards side by side never pair with each other. Its name is derived
///   from the file and line of the declaration and the view's place in the slot's tree, which
///   is the same on every update (`InstanceNamespaces`). Pass it to child views as a plain
///   `Namespace` property; their marks stay in the parent's namespace.
/// - `Namespace("hero")` names it yourself: the same name everywhere it is used.
///
/// ```swift
/// struct HeroCard: NookView {
///     @Namespace var hero
///     var body: some NookView { cover.twShared("cover", in: hero) }
/// }
/// ```
@propertyWrapper
public struct Namespace: Hashable, Sendable, CustomStringConvertible {
    /// The declared name: as given, or `ns.<file>.<line>` for a per-instance namespace (the
    /// name sent then also says which instance).
    public let name: String
    /// True for `@Namespace` / `Namespace()`: scoped to the instance of the view declaring it.
    public let isPerInstance: Bool

    public init(_ name: String) {
        self.name = name
        isPerInstance = false
    }

    public init(fileID: String = #fileID, line: Int = #line) {
        name = Self.derivedName(fileID: fileID, line: line)
        isPerInstance = true
    }

    /// The namespace itself, so `@Namespace var hero` reads as a `Namespace`.
    public var wrappedValue: Namespace { self }

    public var description: String { name }

    /// What a mark carries before the encoder knows the instance (`InstanceNamespaces`).
    var markName: String { isPerInstance ? name + InstanceNamespaces.pending : name }

    /// `ns.<fileID with disallowed characters as _>.<line>`, shortened to 128 characters
    /// with a stable hash when the file id is very long.
    static func derivedName(fileID: String, line: Int) -> String {
        let file = String(
            String.UnicodeScalarView(
                fileID.unicodeScalars.map { scalar in
                    scalar.isASCII && Identifier.isValid(String(scalar)) ? scalar : "_"
                }))
        let name = "ns." + file + "." + String(line)
        guard name.utf8.count > Identifier.maxLength else { return name }
        return "ns.h" + StableText.fnv1a(fileID) + "." + String(line)
    }
}
