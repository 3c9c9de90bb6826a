import NookBus
import NookCore
import NookRenderModel

/// `record --svg`: a sequence of plans drawn into ONE animated SVG any browser plays (SMIL
/// `<animate>`, looping), as nook-renderer draws them.
///
/// The plans are played through NookRenderModel's `PlanPresenter`, the renderer's own
/// interpreter, each starting when it arrived (`RecordingTimeline`: idle gaps shortened,
/// interruptions kept). Its display list is sampled `frameRate` times a second, and each
/// thing drawn becomes SVG tracks:
/// - the chrome: `#chrome` with x, y, width, height, corner radius and opacity; the same
///   shape clips what the model clips to it (`#chrome-clip`). A Reduce Motion dissolve adds
///   `#chrome-fading` (and `#chrome-fading-clip`), only in documents that have one.
/// - every display item (a node's text, shape, image, custom view or progress, a capsule's
///   shape, a travelling shared element's copy): a `<g>` carrying its `data-path` (and
///   `data-key` for a shared element), whose opacity follows the item's and is 0 while it is
///   not drawn, around a rect (or text) whose x, y, width and height follow the item's rect.
/// - a timeline along the bottom: a tick and `#serial cause` label per plan, and a playhead.
///
/// Values are linear between samples, so springs overshoot and settle as the renderer draws
/// them. The output is deterministic: the same plans give the same bytes.
public struct SVGRecording: Sendable {
    public var plans: [RecordedPlan]
    public var frameRate: Double = 60

    /// The SVG document.
    public var document: String {
        let timeline = RecordingTimeline(plans)
        return Canvas(timeline: timeline, tracks: FrameTracks(timeline: timeline, frameRate: frameRate)).draw()
    }
}
