import NookCore
import Testing

/// A countdown that may show hours reserves their width (issue 39: a 1:05:00 timer was laid
/// out for `00:00` and the renderer cut it to `1:05…`). `TextMetrics.timerPlaceholder` is
/// the widest text a countdown of a given length shows, as `Countdown` formats it; a `text`
/// given beside `timer_end` is what the layout measures, while the renderer draws the
/// countdown.
@Suite struct TimerPlaceholderTests {
    @Test func theWidestFormatFollowsTheCountdownsLength() {
        #expect(TextMetrics.timerPlaceholder(seconds: 0) == "00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 240) == "00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 3599) == "00:00")
        // 3599.5 s shows 1:00:00 in its first half second (whole seconds round up).
        #expect(TextMetrics.timerPlaceholder(seconds: 3599.5) == "0:00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 3900) == "0:00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 35_999) == "0:00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 36_000) == "00:00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 86_400) == "00:00:00")
        // Outside any countdown's range: finite, never traps.
        #expect(TextMetrics.timerPlaceholder(seconds: -5) == "00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: .nan) == "00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: .infinity) == "00:00:00")
        #expect(TextMetrics.timerPlaceholder(seconds: 1e300) == "00:00:00")
    }

    /// The layout measures a countdown with a placeholder `text` at least as wide as the
    /// hours it will show, where one without it is narrower than them.
    @Test func aCountdownWithItsPlaceholderIsLaidOutWideEnoughForItsHours() {
        func width(_ props: NodeProps) -> Double {
            LayoutEngine.layout(ViewNode(kind: .text, props: props), rootPath: "compact_trailing", proposal: .unspecified).root?.rect.width ?? 0
        }
        var shown = NodeProps()
        shown.text = "1:05:00"
        shown.fontSize = 13
        shown.fontWeight = "semibold"
        shown.monospacedDigits = true
        var bare = shown
        bare.text = nil
        bare.timerEnd = 1_750_000_000_000_000
        var reserved = bare
        reserved.text = TextMetrics.timerPlaceholder(seconds: 3900)
        #expect(width(bare) < width(shown), "the bare countdown is measured as 00:00")
        #expect(width(reserved) >= width(shown), "\(width(reserved)) < \(width(shown))")
    }
}
