import NookCore

// SwiftUI's words where they mean the same in a nook (issue 45): a SwiftUI developer's first
// reach compiles and does what it says. Where Nook cannot mean the same, the compiler says
// what to write instead.

/// A text style, as SwiftUI's `Font`: `.headline`, `.caption`, `.system(size:weight:)`.
/// The semantic styles take SwiftUI's default sizes and weights at the large content size.
public struct Font: Hashable, Sendable {
    public var size: Double
    public var weight: FontWeight?

    public init(size: Double, weight: FontWeight? = nil) {
        self.size = size
        self.weight = weight
    }

    public static func system(size: Double, weight: FontWeight? = nil) -> Font { Font(size: size, weight: weight) }

    public static let largeTitle = Font(size: 34)
    public static let title = Font(size: 28)
    public static let title2 = Font(size: 22)
    public static let title3 = Font(size: 20)
    public static let headline = Font(size: 17, weight: .semibold)
    public static let body = Font(size: 17)
    public static let callout = Font(size: 16)
    public static let subheadline = Font(size: 15)
    public static let footnote = Font(size: 13)
    public static let caption = Font(size: 12)
    public static let caption2 = Font(size: 11)

    /// The same size, bold (SwiftUI's `Font.bold()`).
    public func bold() -> Font { Font(size: size, weight: .bold) }

    /// The same size at `weight` (SwiftUI's `Font.weight(_:)`).
    public func weight(_ weight: FontWeight) -> Font { Font(size: size, weight: weight) }
}

extension Text {
    /// Sets size and weight from `font`: `Text("Build").font(.headline)`.
    public func font(_ font: Font) -> Text { self.font(size: font.size, weight: font.weight) }

    /// Bold (`font_weight` bold), as SwiftUI's `.bold()`.
    public func bold() -> Text { fontWeight(.bold) }

    /// Italic (the `italic` class).
    public func italic() -> Text { adding(class: "italic") }

    /// Underlined (the `underline` class).
    public func underline() -> Text { adding(class: "underline") }

    /// SwiftUI's older name for `foregroundStyle(_:)`.
    public func foregroundColor(_ color: NookColor) -> Text { foregroundStyle(color) }

    private func adding(class name: String) -> Text {
        var copy = self
        let classes = copy.props.classes ?? ""
        copy.props.classes = classes.isEmpty ? name : classes + " " + name
        return copy
    }
}

extension Image {
    /// SwiftUI's older name for `foregroundStyle(_:)`.
    public func foregroundColor(_ color: NookColor) -> Image { foregroundStyle(color) }

    /// Kept for SwiftUI's habit: a nook image always scales to its frame (20 pt square without
    /// one), so this changes nothing.
    public func resizable() -> Image { self }

    /// Kept for SwiftUI's habit: an image is drawn whole inside its frame, aspect kept.
    public func scaledToFit() -> Image { self }

    @available(*, unavailable, message: "a nook image is always drawn whole inside its frame (scaledToFit); crop it with a frame and .clipShape is not available either")
    public func scaledToFill() -> Image { self }
}

extension ProgressView {
    /// `value` out of `total`, as SwiftUI's `ProgressView(value:total:)`: the fraction
    /// `value / total`, clamped to 0...1 (a total of 0 or less counts as empty).
    public init(value: Double, total: Double) {
        self.init(value: total > 0 && total.isFinite ? value / total : 0)
    }
}

/// A symbol and a title side by side, as SwiftUI's `Label("Build", systemImage: "hammer")`.
public struct Label: NookView {
    let title: String
    let systemImage: String

    public init(_ title: String, systemImage: String) {
        self.title = title
        self.systemImage = systemImage
    }

    public var body: some NookView {
        HStack(alignment: .center, spacing: 6) {
            Image(systemName: systemImage).frame(width: 16, height: 16)
            Text(title)
        }
    }
}
