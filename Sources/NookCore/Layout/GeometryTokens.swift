/// The nook's geometry tokens (`geometry.*` in the theme), resolved to plain numbers.
///
/// Defaults are the built-in theme's. The theme code resolves aliases and types; mapping its
/// result onto this struct is one loop over `tokenPaths`:
/// ```swift
/// var tokens = GeometryTokens()
/// for entry in GeometryTokens.tokenPaths {
///     if let value = resolved[entry.path] { tokens[keyPath: entry.keyPath] = value }
/// }
/// ```
public struct GeometryTokens: Hashable, Sendable {
    /// Gap between the top of the display and the nook.
    public var topInset = 0.0
    public var pillHeight = 32.0
    public var pillCornerRadius = 16.0
    /// Room around each compact slot, and taken off the band height for the slot's height.
    public var pillSlotPadding = 10.0
    public var pillSlotMaxWidth = 120.0
    public var capsuleSize = 32.0
    public var capsuleSpacing = 8.0
    public var peekWidth = 360.0
    public var peekHeight = 72.0
    public var peekCornerRadius = 24.0
    public var expandedWidth = 480.0
    public var expandedMaxHeight = 240.0
    public var expandedCornerRadius = 32.0
    /// Room around the expanded content (also used inside the companion window).
    public var expandedPadding = 16.0
    /// Whole number of board columns (read with `boardColumnCount`).
    public var boardColumns = 2.0
    public var boardSpacing = 12.0
    public var boardWidgetHeight = 96.0
    public var companionWidth = 360.0
    public var companionHeight = 420.0
    public var companionCornerRadius = 16.0
    public var companionMargin = 24.0

    public init() {}

    /// Every token path and the property it sets, in the theme's order.
    public static let tokenPaths: [(path: String, keyPath: WritableKeyPath<GeometryTokens, Double> & Sendable)] = [
        ("geometry.topInset", \.topInset),
        ("geometry.pill.height", \.pillHeight),
        ("geometry.pill.cornerRadius", \.pillCornerRadius),
        ("geometry.pill.slotPadding", \.pillSlotPadding),
        ("geometry.pill.slotMaxWidth", \.pillSlotMaxWidth),
        ("geometry.capsule.size", \.capsuleSize),
        ("geometry.capsule.spacing", \.capsuleSpacing),
        ("geometry.peek.width", \.peekWidth),
        ("geometry.peek.height", \.peekHeight),
        ("geometry.peek.cornerRadius", \.peekCornerRadius),
        ("geometry.expanded.width", \.expandedWidth),
        ("geometry.expanded.maxHeight", \.expandedMaxHeight),
        ("geometry.expanded.cornerRadius", \.expandedCornerRadius),
        ("geometry.expanded.padding", \.expandedPadding),
        ("geometry.board.columns", \.boardColumns),
        ("geometry.board.spacing", \.boardSpacing),
        ("geometry.board.widgetHeight", \.boardWidgetHeight),
        ("geometry.companion.width", \.companionWidth),
        ("geometry.companion.height", \.companionHeight),
        ("geometry.companion.cornerRadius", \.companionCornerRadius),
        ("geometry.companion.margin", \.companionMargin),
    ]

    /// Reads or writes a token by its dotted path; nil for a path that is not a geometry token.
    public subscript(path path: String) -> Double? {
        get { Self.tokenPaths.first { $0.path == path }.map { self[keyPath: $0.keyPath] } }
        set {
            guard let newValue, let entry = Self.tokenPaths.first(where: { $0.path == path }) else { return }
            self[keyPath: entry.keyPath] = newValue
        }
    }

    /// Columns on the board: the token rounded down, at least 1.
    public var boardColumnCount: Int {
        boardColumns.isFinite && boardColumns >= 1 ? Int(min(boardColumns, 64)) : 1
    }

    /// A copy safe to compute with: a NaN or infinite token falls back to its default, a
    /// finite one outside `NumberDomain.length` its nearest bound.
    public var sanitized: GeometryTokens {
        // Quick check without key paths (the usual case: nothing to fix).
        let values = [
            topInset, pillHeight, pillCornerRadius, pillSlotPadding, pillSlotMaxWidth, capsuleSize, capsuleSpacing,
            peekWidth, peekHeight, peekCornerRadius, expandedWidth, expandedMaxHeight, expandedCornerRadius,
            expandedPadding, boardColumns, boardSpacing, boardWidgetHeight, companionWidth, companionHeight,
            companionCornerRadius, companionMargin,
        ]
        if values.allSatisfy(NumberDomain.length.contains) { return self }
        var copy = self
        let defaults = GeometryTokens()
        for entry in Self.tokenPaths {
            let value = copy[keyPath: entry.keyPath]
            if !value.isFinite {
                copy[keyPath: entry.keyPath] = defaults[keyPath: entry.keyPath]
            } else {
                // Themes are refused outside NumberDomain.length; tokens set by other means
                // are held to it here, so no geometry sum can overflow.
                copy[keyPath: entry.keyPath] = NumberDomain.length.clamped(value)
            }
        }
        return copy
    }
}
