import NookTestSupport
import Testing
@testable import NookCore

/// Issue 20 item 8 in NookCore: text comes in through a `TextMeasurer`, the family through the
/// theme's `font.family`, and plans name it.
@Suite struct TextMeasurementTests {
    /// A measurer that gives every scalar the same advance and a fixed line height.
    struct FixedMeasurer: TextMeasurer {
        var advance: Double
        var identity: String { "fixed:\(advance)" }
        func measure(_ text: String, in font: TextFont) -> MeasuredText {
            MeasuredText(advances: text.unicodeScalars.map { $0 == "\n" ? 0 : advance * font.size }, lineHeight: 2 * font.size)
        }
    }

    /// ASCII text is read as bytes when no measurer is given; it must measure exactly as the
    /// scalar path does (here driven by the same estimate through `EstimatedTextMeasurer`).
    @Test(arguments: Array(UInt64(1)...60))
    func asciiTextMeasuresAsItsScalarsDo(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let pieces = ["Track", "12", "00:42", " ", "  ", "\t", "\n", "\r\n", "a", "longer-word-here", "x9"]
        let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        let fontSize = Double(Int.random(in: 16...48, using: &rng)) / 2
        let weight = ["bold", "light", nil, "600"].randomElement(using: &rng)!
        let digits = Bool.random(using: &rng)
        var store = TextStore()
        let bytes = store.add(text: text, fontSize: fontSize, weight: weight, monospacedDigits: digits)
        let scalars = store.add(text: text, fontSize: fontSize, weight: weight, monospacedDigits: digits, measurer: EstimatedTextMeasurer())
        for width in [-1.0, 0, 3, 10, 25, 60, 140, .infinity] {
            for height in [-1.0, 0, 15, 40, .infinity] {
                #expect(store.size(of: bytes, width: width, height: height) == store.size(of: scalars, width: width, height: height),
                        "\(text.debugDescription) at \(width) x \(height)")
            }
        }
    }

    @Test func layoutSizesTextWithTheMeasurerItIsGiven() {
        var text = ViewNode(kind: .text)
        text.props.text = "ab cd"
        text.props.fontSize = 10
        let measurement = TextMeasurement(FixedMeasurer(advance: 1))
        let ideal = LayoutEngine.layout(text, rootPath: "expanded", in: Rect(x: 0, y: 0, width: 1000, height: 1000), text: measurement)
        #expect(ideal.root?.rect.size == Size(width: 50, height: 20))
        // Wrapped at 30 points: "ab" and "cd" on two lines of the measurer's height.
        let wrapped = LayoutEngine.layout(text, rootPath: "expanded", in: Rect(x: 0, y: 0, width: 30, height: 1000), text: measurement)
        #expect(wrapped.root?.rect.size == Size(width: 20, height: 40))
        // The estimate is what layout uses without one.
        let estimated = LayoutEngine.layout(text, rootPath: "expanded", in: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let expected = EstimatedTextMeasurer().measure("ab cd", in: TextFont(size: 10))
        #expect(estimated.root?.rect.width == expected.advances.reduce(0, +))
    }

    /// A measurer's bad numbers take no room rather than poison layout.
    @Test func nonFiniteAdvancesTakeNoRoom() {
        struct Broken: TextMeasurer {
            var identity: String { "broken" }
            func measure(_ text: String, in font: TextFont) -> MeasuredText {
                MeasuredText(advances: [.nan, .infinity, -4, 3], lineHeight: .nan)
            }
        }
        var text = ViewNode(kind: .text)
        text.props.text = "abcd"
        let result = LayoutEngine.layout(text, rootPath: "r", in: Rect(x: 0, y: 0, width: 100, height: 100), text: TextMeasurement(Broken()))
        #expect(result.root?.rect.size == Size(width: 3, height: 0))
    }

    @Test func theFontFamilyTokenReachesThePlan() throws {
        #expect(Theme.builtIn.fontFamily == "Sans")
        let theme = try Theme.builtIn.applying(["font.family": .string("DejaVu Serif")])
        let settings = PlannerSettings(theme: theme, display: DisplayInfo(width: 1512, height: 982))
        #expect(settings.fontFamily == "DejaVu Serif")
        let pill = PlannerScene(presentation: .pill, content: SceneContent(), settings: settings)
        let plan = TransitionPlanner.plan(from: pill, to: pill, action: PlanAction(cause: .subscribe, serial: 1), settings: settings)
        #expect(plan.wireDictionary()["font_family"] == .string("DejaVu Serif"))
    }

    @Test func aBadFontFamilyIsRefusedNamingTheToken() {
        for bad in ["", String(repeating: "x", count: 129), "Sans\n"] {
            let error = ThemeLimitTests.refusal { () throws(ThemeError) in try Theme.builtIn.applying(["font.family": .string(bad)]) }
            #expect(error?.issues.map(\.path) == ["font.family"], "\(bad.debugDescription)")
        }
    }

    @Test func theCacheKeepsAtMostItsCapacity() {
        var cache = BoundedCache<Int, Int>(capacity: 8)
        for key in 0..<100 { cache.insert(key, for: key) }
        #expect(cache.count <= 8)
        // Recent entries stay; a hit in the older half is kept on.
        #expect(cache.value(for: 99) == 99)
        #expect(cache.value(for: 96) == 96)
        #expect(cache.value(for: 0) == nil)
        #expect(cache.value(for: 5) { 50 } == 50)
    }
}
