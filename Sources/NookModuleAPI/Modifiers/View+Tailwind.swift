import NookCore
extension NookView {
    /// Styles the view with a class string (see docs/classes-and-tokens.md): layout utilities
    /// (`w-20 h-20 p-2`), a group (`group/hero`), a group-scoped shared element
    /// (`shared-[cover]`), animation classes (`animate-smooth duration-400`), variants
    /// (`group-hover/hero:opacity-70`) and anything a renderer understands.
    ///
    /// The classes land on the view's own node unless something already on it would have to
    /// sit inside them (see `Layers`): `.frame(width: 20).tw("p-2")` pads outside the frame,
    /// so the classes go on a wrapper. A later `.tw` on the same node appends its classes.
    ///
    /// Without `value:`, animation classes animate styled values only (opacity, colour).
    public func tw(_ classes: String) -> EncodedView {
        _encode().modified(adding: Layers(classes: classes)) { props in props.appendClasses(classes) }
    }

    /// `.tw(classes)` that also opens an animation scope (SPEC rule 17): when `value` differs
    /// between the old and the new view, everything inside (shared elements, layout changes,
    /// insertions and removals) animates on the scope's curve.
    ///
    /// `value` is sent as `animation_value`, its description (hashed when long), which stays
    /// the same across runs: pass a value whose description changes when it does (a `Bool`,
    /// a number, an enum case, an id), not a class instance or a `Set`.
    ///
    /// ```swift
    /// VStack { ... }.tw("group/hero animate-smooth duration-400", value: expanded)
    /// ```
    public func tw(_ classes: String, value: some Hashable) -> EncodedView {
        var adding = Layers(classes: classes)
        adding.animation = true
        let text = StableText.of(value)
        return _encode().modified(adding: adding) { props in
            props.appendClasses(classes)
            props.animationValue = text
        }
    }

    /// `.tw` with typed utilities: `.tw(.padding(2), .width(20))`.
    public func tw(_ utilities: TWUtility...) -> EncodedView {
        tw(utilities.map(\.className).joined(separator: " "))
    }

    /// An animation scope from typed utilities: only the animation ones (`.animation`,
    /// `.duration`, `.delay`) are written; other utilities do not decorate the view.
    ///
    /// ```swift
    /// card.twAnimation(.animation(.smooth), .duration(0.4), value: expanded)
    /// ```
    public func twAnimation(_ utilities: TWUtility..., value: some Hashable) -> EncodedView {
        let classes = utilities.filter(\.isAnimation).map(\.className).joined(separator: " ")
        return animationScope(classes, value: StableText.of(value))
    }

    /// An animation scope limited to styled values (no `value:`): opacity, colour.
    public func twAnimation(_ utilities: TWUtility...) -> EncodedView {
        animationScope(utilities.filter(\.isAnimation).map(\.className).joined(separator: " "), value: nil)
    }

    /// An animation scope from a class string: only its animation classes are written
    /// (`"animate-smooth duration-400 p-2"` decorates nothing with `p-2`).
    public func twAnimation(_ classes: String, value: some Hashable) -> EncodedView {
        animationScope(TWClasses.animationOnly(classes), value: StableText.of(value))
    }

    private func animationScope(_ classes: String, value: String?) -> EncodedView {
        var adding = Layers()
        adding.animation = true
        return _encode().modified(adding: adding) { props in
            props.appendClasses(classes)
            if let value { props.animationValue = value }
        }
    }
}
