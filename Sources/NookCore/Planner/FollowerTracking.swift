/// Seed 001, rule 16: a follower (`is_source: false`, `shared-follower`) takes its source's
/// geometry for the properties it matches, so both copies stay together on screen.
///
/// Contract
/// - A follower tracks the one source of its key in the same slot; with no source, or more
///   than one (rule 9), it keeps its own layout. A follower inside its source (or around it)
///   keeps its own layout too: tracking would move what it tracks.
/// - At rest its rect is `RectMath.start(from: source, to: own, ...)` (frame: the source's
///   frame; position: its own size at the source's anchor; size: the source's size at its own
///   anchor), and its subtree is laid out again inside that rect.
/// - In a content transition (`ContentTransition`) it rides its source's move, on the same
///   curve, so at every frame it is where the source is drawn.
enum FollowerTracking {
    /// Each follower of `namespaces` that tracks a source, with that source, in preorder.
    static func pairs(in namespaces: SlotNamespaces) -> [(follower: SharedElement, source: SharedElement)] {
        let elements = namespaces.elements
        guard elements.contains(where: { !$0.isSource }) else { return [] }
        var sources: [SharedKey: [SharedElement]] = [:]
        for element in elements where element.isSource { sources[element.key, default: []].append(element) }
        var out: [(SharedElement, SharedElement)] = []
        for follower in elements where !follower.isSource {
            guard let found = sources[follower.key], found.count == 1, let source = found.first,
                  !PathPrefix.contains(source.path, follower.path), !PathPrefix.contains(follower.path, source.path)
            else { continue }
            out.append((follower, source))
        }
        return out
    }

    /// Where a follower goes when its source is at `source` and its own layout is `own`.
    static func rect(following source: Rect, own: Rect, follower: SharedElement) -> Rect {
        RectMath.start(from: source, to: own, properties: follower.properties, anchor: follower.anchor)
    }

    /// Moves each follower of `slot` onto its source and lays its subtree out again there.
    static func apply(to slot: inout PreparedSlot, rules: NamedLayoutRules, text: TextMeasurement) {
        for (follower, source) in pairs(in: slot.namespaces) {
            guard let sourceRect = slot.laidOut.layout.rect(at: source.path),
                  let index = slot.laidOut.layout.index(of: follower.path),
                  var view = slot.node(at: follower.path)
            else { continue }
            let own = slot.laidOut.layout.rect(atIndex: index)
            let tracked = rect(following: sourceRect, own: own, follower: follower)
            guard !tracked.isClose(to: own) else { continue }
            // The follower's frame is the tracked rect: its own lengths give way to it.
            view.fixFrame(to: tracked.size)
            let laid = LayoutEngine.layout(
                view, rootPath: follower.path, proposal: ProposedSize(tracked.size), in: tracked, rules: rules, text: text)
            slot.laidOut.layout.replaceRects(from: index, with: laid)
        }
    }
}
