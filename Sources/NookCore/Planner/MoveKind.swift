/// Which pair of presentations a move joins, for curve selection (rule 14).
enum MoveKind {
    /// Pill or peek to or from expanded content (and every other move).
    case convert
    /// Pill to or from its peek.
    case peek

    init(_ from: Presentation, _ to: Presentation) {
        self = (from == .pill && to == .peek) || (from == .peek && to == .pill) ? .peek : .convert
    }

    /// The chrome's token, named in the source of a curve the theme could not give.
    var chromeToken: String { self == .peek ? "transition.peek" : "transition.convert" }
}
