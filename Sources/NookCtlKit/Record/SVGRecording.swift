import NookBus
import NookCore

/// `record --svg`: a renderer of the contract that draws a sequence of plans into ONE
/// animated SVG any browser plays (SMIL `<animate>`, looping).
///
/// It uses only what the plans say:
/// 1. A clock (`RecordingTimeline`): each plan starts when it arrived, idle gaps shortened.
/// 2. The chrome: a rect whose x, y, width, height and corner radius follow the plan's chrome
///    curve from `from_rect`/`from_radius` to `to_rect`/`to_radius`; the same tracks drive a
///    `clipPath` (`#chrome-clip`) so whatever is clipped to the chrome is clipped to its
///    shape in between. A `via_hidden` conversion hides it for `hide_dip` first. A chrome
///    with `cross_fade` (Reduce Motion, rule 18) never takes a shape in between: `#chrome`
///    (and the clip) jumps to the destination and a second rect, `#chrome-fading`, holds
///    the source; their opacities dissolve one into the other (the larger shape fades, the
///    smaller stays opaque). `#chrome-fading` is only in documents that have a dissolve.
/// 3. Slots: the nodes of each plan's `scene`, grouped by slot and owner, fade in on their
///    `appear` curve (delay included), fade out on the next plan's `disappear` curve, and
///    hand over at once when the next plan says the slot stays or updates.
/// 4. Shared elements: one rect per `elements` entry (`id="element-<serial>-<n>"`) moving from
///    `from_rect` to `to_rect` on its curve, inside the chrome clip when `clip` is `chrome`;
///    the nodes it stands for are hidden while it travels; `cross_fade` adds the source's
///    look fading out over it.
/// 5. Content transitions: `layout` `move` entries slide their node, `insert` entries fade it in.
/// 6. A timeline along the bottom: a tick and `#serial cause` label per plan, and a playhead.
///
/// Curves are sampled with NookCore's `Curve` at `frameRate` samples per second and played
/// linearly between samples, so springs overshoot and settle the same everywhere. The output
/// is deterministic: the same plans give the same bytes.
public struct SVGRecording: Sendable {
    public var plans: [RecordedPlan]
    public var frameRate: Double

    public init(plans: [RecordedPlan], frameRate: Double = 60) {
        self.plans = plans
        self.frameRate = frameRate
    }

    /// The SVG document.
    public var document: String {
        var canvas = Canvas(timeline: RecordingTimeline(plans), frameRate: frameRate)
        return canvas.draw()
    }
}
