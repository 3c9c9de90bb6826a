/// What the nook is showing (SPEC "Presentations"); raw values are the contract's strings.
public enum Presentation: String, Hashable, Sendable, CaseIterable {
    /// No chrome at all.
    case hidden
    /// Chrome hugging the notch, with the primary activity's compact views and capsules.
    case pill
    /// The pill grown downwards to show one activity's peek view.
    case peek
    /// The panel: an activity's expanded view, a module's home, or the board.
    case expanded
    /// A separate window for one module, beside the pill.
    case companion
}
