/// A caller namespace for `.twShared`: the SDK's counterpart of SwiftUI's `@Namespace`.
///
/// Elements marked with the same id in the same namespace match within one slot's view (the
/// broker keys them `<owner>/<slot>/ns:<name>/<id>`). A namespace is just a stable name, sent
/// as the mark's `namespace`; it must be a valid identifier (SPEC rule 1).
///
/// - `Namespace("hero")` names it yourself.
/// - `Namespace()` derives the name from the file and line where it is created
///   (`ns.MyModule_HeroCard.swift.12`), which is the same on every run and every rebuild of
///   the view, so a namespace stored in a view struct keeps its name across updates.
///
/// Two instances of one view type in the same slot share a derived name, and so share ids;
/// give each instance its own name (`Namespace("hero.\(item.id)")`) when you show several.
public struct Namespace: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public init(fileID: String = #fileID, line: Int = #line) {
        name = Self.derivedName(fileID: fileID, line: line)
    }

    public var description: String { name }

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
