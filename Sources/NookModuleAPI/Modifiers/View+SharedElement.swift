import NookCore
extension NookView {
    /// Marks the view as a shared element of the nook (SPEC rules 1-14).
    ///
    /// When the nook changes presentation and a view marked with the same id shows on the
    /// other side (in this module's views), the element moves from one place to the other
    /// instead of fading. At rest it draws exactly as unmarked.
    ///
    /// - Parameters:
    ///   - id: ASCII letters, digits, `-`, `_`, `.`; 1 to 128 characters.
    ///   - style: `.resize` (laid out at every in-between frame: artwork, shapes) or `.scale`
    ///     (laid out once at the destination size and scaled: text and numbers).
    ///   - isSource: false for a follower: a second copy of the same id in one view (both stay
    ///     visible; the follower tracks the source instead of moving on its own). What the
    ///     broker's `duplicate-source` diagnostic advises.
    ///
    /// The mark covers the view as built so far: modifiers after it that change its size or
    /// look go on a wrapper outside the marked node.
    ///
    /// ```swift
    /// TimerText(timer: timer).nookSharedElement("timer", style: .scale)
    /// Image(systemName: "hammer").nookSharedElement("icon", isSource: false)
    /// ```
    public func nookSharedElement(_ id: String, style: SharedStyle = .resize, isSource: Bool = true) -> EncodedView {
        mark(SharedMark(id: id, style: style, isSource: isSource))
    }

    /// Marks the view in a caller namespace, for content transitions inside one slot
    /// (SPEC rules 15-17): the same namespace and id on the old and the new view match.
    ///
    /// - Parameters:
    ///   - id: any `Hashable`: a `String`, an `Int`, an enum case, a struct. A description that
    ///     is not a valid id (`"My Song"`, a long or structured one) is sent as a valid id made
    ///     from it, the same in every run (`StableText.sharedID`).
    ///   - namespace: a `Namespace` (its name is sent as the mark's `namespace`).
    ///   - properties: what is matched: `.frame` (default), `.position` (keep the destination
    ///     size, as for a title), `.size`.
    ///   - anchor: the point of the frame that is matched (default `.center`).
    ///   - isSource: false for a follower, when both copies stay visible.
    ///
    /// Order matters (SPEC rule 24): before `.frame(...)` the mark is on the inner view, so
    /// different frames on the two sides interpolate its size; after `.tw(...)` it covers the
    /// whole styled surface.
    ///
    /// ```swift
    /// title.twShared("title", in: hero, properties: .position, anchor: .leading)
    /// ```
    public func twShared(
        _ id: some Hashable, in namespace: Namespace, properties: SharedProperties = .frame,
        anchor: SharedAnchor = .center, isSource: Bool = true
    ) -> EncodedView {
        mark(
            SharedMark(
                id: StableText.sharedID(id), namespace: namespace.markName, properties: properties, anchor: anchor,
                isSource: isSource))
    }

    private func mark(_ mark: SharedMark) -> EncodedView {
        var adding = Layers()
        adding.mark = true
        return _encode().modified(adding: adding) { props in props.shared = mark }
    }
}
