import CFontText
import NookCore
import Synchronization

/// Text measured in real fonts, the way Pango sets it: fontconfig picks the fonts (the family,
/// then fontconfig's fallbacks for characters the family lacks), HarfBuzz shapes each run, and
/// every glyph's unhinted advance goes to its cluster's first scalar (see `TextMeasurer`).
///
/// How a string is split into runs follows Pango's itemizer closely enough that the widths
/// agree within a pixel (`nook-renderer --measure-text`, docs/renderer.md):
/// - each character takes the first font, in fontconfig's sorted order for the family and
///   weight, that has it (none has it: the first font);
/// - spaces, controls, format characters (joiners) and variation selectors take no font of
///   their own: they stay in the run they are in (at the start, they join the next run);
/// - a run also ends where the script changes (characters common to all scripts, such as
///   digits and punctuation, stay in the run they are in), and is shaped in that script's
///   direction with the whole paragraph as context;
/// - `tnum` is turned on for monospaced digits.
///
/// Advances are measured once per string, weight and digit style, in ems, and scaled to the
/// size asked for (unhinted advances scale linearly); the last `cacheCapacity` strings stay
/// cached. One lock guards the fonts and the cache, so any thread may measure.
public final class FontTextMeasurer: TextMeasurer {
    public let family: String
    public let identity: String
    private let state: Mutex<FontState>

    /// - Parameters:
    ///   - family: a fontconfig family or alias (`Sans`), as the theme's `font.family` names it.
    ///   - cacheCapacity: how many measured strings to keep.
    public init(family: String, cacheCapacity: Int = 4096) {
        self.family = family
        identity = "fontconfig:" + family
        state = Mutex(FontState(family: family, cacheCapacity: cacheCapacity))
    }

    public func measure(_ text: String, in font: TextFont) -> MeasuredText {
        let key = MeasurementKey(text: text, weight: font.weight, monospacedDigits: font.monospacedDigits)
        let inEms = state.withLock { state in
            state.cache.value(for: key) { state.measure(text, weight: font.weight, monospacedDigits: font.monospacedDigits) }
        }
        let size = font.size.isFinite ? max(0, font.size) : 0
        return MeasuredText(advances: inEms.advances.map { $0 * size }, lineHeight: inEms.lineHeight * size)
    }

    /// The files of the fonts a string of `weight` would use, in fontconfig's order (for tests
    /// and `--measure-text` to say which fonts were involved).
    public func fontFiles(weight: Int) -> [String] {
        state.withLock { state in state.fonts(weight: weight).faces.map(\.file) }
    }
}

struct MeasurementKey: Hashable, Sendable {
    var text: String
    var weight: Int
    var monospacedDigits: Bool

    /// The text, then weight and digit style in one word (one combine fewer per probe).
    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(weight &* 2 &+ (monospacedDigits ? 1 : 0))
    }
}
