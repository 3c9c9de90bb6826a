/// How layout learns how wide text is. NookCore never touches fonts itself: the broker hands
/// layout a measurer backed by real fonts (NookText: fontconfig and HarfBuzz), the renderer
/// one backed by Pango, and goldens and pure tests use the built-in estimate (`TextMetrics`).
///
/// A measurer sets a string on one line, with no wrapping, in its own font family at `font`'s
/// size, weight and digit style, and reports the advance of every Unicode scalar: a cluster
/// (a base and its marks, an emoji sequence, a ligature) puts its whole advance on its first
/// scalar, the rest get 0, so any run of scalars measures as the sum of its advances. `\n`
/// and `\r` get 0 and end a line; layout wraps words with these advances.
public protocol TextMeasurer: Sendable {
    /// What tells two measurers' results apart (`estimate`, `fontconfig:Sans`): two measurers
    /// with the same identity measure every string alike.
    var identity: String { get }
    func measure(_ text: String, in font: TextFont) -> MeasuredText
}

/// What a text asks of its font, apart from the family (which the measurer holds).
public struct TextFont: Hashable, Sendable {
    /// Pixels per em (one point is one application pixel).
    public var size: Double
    /// CSS weight, 100...900.
    public var weight: Int
    /// Tabular digits (`tnum`): a timer's digits do not jitter.
    public var monospacedDigits: Bool

    public init(size: Double, weight: Int = 400, monospacedDigits: Bool = false) {
        self.size = size
        self.weight = min(max(weight, 100), 900)
        self.monospacedDigits = monospacedDigits
    }

    /// CSS weights for the SDK's `font_weight` names and numeric strings (`"600"`); anything
    /// else is regular (400). The renderer draws with the same mapping.
    public static func cssWeight(_ name: String?) -> Int {
        switch name {
        case "thin": 100
        case "ultralight": 200
        case "light": 300
        case "medium": 500
        case "semibold": 600
        case "bold": 700
        case "heavy": 800
        case "black": 900
        case let other?: Int(other).map { min(max($0, 100), 900) } ?? 400
        case nil: 400
        }
    }
}

/// One string measured on one line.
public struct MeasuredText: Hashable, Sendable {
    /// One per Unicode scalar of the string, in points (see `TextMeasurer`).
    public var advances: [Double]
    /// The height of one line: the tallest ascent plus descent among the fonts the string uses.
    public var lineHeight: Double

    public init(advances: [Double], lineHeight: Double) {
        self.advances = advances
        self.lineHeight = lineHeight
    }

    public var width: Double { advances.reduce(0, +) }
}

/// The measurer layout uses, comparable by identity so settings holding one stay `Hashable`.
/// `.estimate` is `TextMetrics`, computed inline by layout (no call per string).
public struct TextMeasurement: Hashable, Sendable {
    public let measurer: (any TextMeasurer)?
    public let identity: String

    public static let estimate = TextMeasurement(measurer: nil, identity: "estimate")

    public init(_ measurer: any TextMeasurer) {
        self.init(measurer: measurer, identity: measurer.identity)
    }

    private init(measurer: (any TextMeasurer)?, identity: String) {
        self.measurer = measurer
        self.identity = identity
    }

    public static func == (lhs: TextMeasurement, rhs: TextMeasurement) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}

/// `TextMetrics` as a `TextMeasurer`, for code that wants a measurer either way.
public struct EstimatedTextMeasurer: TextMeasurer {
    public init() {}
    public var identity: String { "estimate" }

    public func measure(_ text: String, in font: TextFont) -> MeasuredText {
        let weight = TextMetrics.weightFactor(String(font.weight))
        var advances: [Double] = []
        advances.reserveCapacity(text.unicodeScalars.count)
        var joinsPrevious = false
        for scalar in text.unicodeScalars {
            let lineBreak = scalar == "\n" || scalar == "\r"
            let factor = joinsPrevious || lineBreak
                ? 0 : TextMetrics.advanceFactor(of: scalar, weight: weight, monospacedDigits: font.monospacedDigits)
            joinsPrevious = scalar.value == 0x200D
            advances.append(font.size * factor)
        }
        return MeasuredText(advances: advances, lineHeight: font.size * TextMetrics.lineHeightFactor)
    }
}
