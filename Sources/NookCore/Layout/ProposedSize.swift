/// What a parent offers a child during layout, one axis at a time.
///
/// `nil` on an axis asks for the child's ideal size there; a finite value is the room on offer.
/// The engine also uses `0` and `.infinity` internally to probe a child's minimum and maximum
/// (how flexible it is); a laid-out result never carries an infinite size.
public struct ProposedSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?

    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    public init(_ size: Size) { self.init(width: size.width, height: size.height) }

    /// Ideal on both axes.
    public static let unspecified = ProposedSize(width: nil, height: nil)
}
