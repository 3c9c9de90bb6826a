extension TransitionPlan {
    /// The contract's plan `a{sv}`, key for key, as `PropValue`s NookBus turns into D-Bus
    /// values mechanically (`.uint` -> t, `.double` -> d, `.structure` -> (dddd), arrays of
    /// dictionaries -> aa{sv}). Additions to the contract: `reveals` (rule 11), chrome
    /// `velocity`, `hide_dip` and `cross_fade` (rule 18, present only when true), slot `path`, the scene's `presentation`, `chrome` and
    /// `capsules`, `font_family` (the family the scene's text was measured in), and `board_cells`
    /// (each board tile's cell, on plans to the board).
    ///
    /// The reference form, written key by key as the contract reads: nookd sends every plan
    /// (signals and replies) through one encoder, `WirePlan`, and `WireTapeTests` holds that
    /// encoder to this dictionary on random plans; tests and benchmarks read plans here.
    /// - Parameter sampleRate: frames per second for curve `samples`, for a renderer that
    ///   asked for sampled curves (no spring support); nil leaves samples out. Encoding is
    ///   per subscriber, so this is not a planner setting.
    /// - Parameter base: the scene (and its plan's serial) the subscriber is known to hold,
    ///   for a subscriber with `scene_delta` (contract 1.1): the plan then carries
    ///   `scene_delta` against it instead of `scene`, unless this plan starts a fresh window.
    /// - Parameter compact: for a subscriber that also declared `compact_plans` (an addition to
    ///   contract 1.1): a plan carrying `scene_delta` then leaves out what follows
    ///   from the rest: in curves, a spring's derived values and a zero delay
    ///   (`Curve.wireDictionary(compact:)`); a slot's `delay` equal to its curve's; the chrome's
    ///   `to_rect`/`to_radius` equal to the scene's chrome, and `from_rect`/`from_radius` equal to
    ///   `to_rect`/`to_radius`.
    public func wireDictionary(
        sampleRate: Double? = nil, base: (serial: UInt64, scene: PlannerScene)? = nil, compact: Bool = false
    ) -> [String: PropValue] {
        let delta = freshWindow ? nil : base.flatMap { scene.wireDelta(from: $0.scene, baseSerial: $0.serial, compact: compact) }
        let compact = compact && delta != nil
        func curve(_ curve: Curve) -> PropValue { .dictionary(curve.wireDictionary(sampleRate: sampleRate, compact: compact)) }

        var chromeEntry = [String: PropValue](minimumCapacity: 8)
        chromeEntry["curve"] = curve(chrome.curve)
        // Compact: the destination is left out when it is the scene's chrome, the start when it
        // is the destination (a chrome that stays put).
        if !compact || chrome.toRect != scene.layout.chrome.rect { chromeEntry["to_rect"] = Self.wire(chrome.toRect) }
        if !compact || chrome.toRadius != scene.layout.chrome.cornerRadius { chromeEntry["to_radius"] = .double(chrome.toRadius) }
        if !compact || chrome.fromRect != chrome.toRect { chromeEntry["from_rect"] = Self.wire(chrome.fromRect) }
        if !compact || chrome.fromRadius != chrome.toRadius { chromeEntry["from_radius"] = .double(chrome.fromRadius) }
        if let velocity = chrome.velocity { chromeEntry["velocity"] = Self.wire(velocity) }
        if let dip = chrome.hideDip { chromeEntry["hide_dip"] = .double(dip) }
        // Only under Reduce Motion, so plans without it keep their exact keys.
        if chrome.crossFade { chromeEntry["cross_fade"] = .bool(true) }

        let elementEntries: [PropValue] = elements.map { element in
            var entry: [String: PropValue] = [
                "from_path": .string(element.fromPath), "to_path": .string(element.toPath), "key": .string(element.key),
                "namespace": .string(element.namespace.rawValue), "module": .string(element.module),
                "activity": .string(element.activity), "id": .string(element.id),
                "from_slot": .string(element.fromSlot.rawValue), "to_slot": .string(element.toSlot.rawValue),
                "from_rect": Self.wire(element.fromRect), "to_rect": Self.wire(element.toRect),
                "style": .string(element.style.rawValue), "cross_fade": .bool(element.crossFade),
                "hide_source": .bool(element.hideSource), "clip": .string(element.clip.rawValue),
                "properties": .string(element.properties.rawValue), "anchor": .string(element.anchor.rawValue),
                "curve": curve(element.curve),
            ]
            if let velocity = element.velocity { entry["velocity"] = Self.wire(velocity) }
            return .dictionary(entry)
        }
        let layoutEntries: [PropValue] = layout.map { change in
            .dictionary([
                "path": .string(change.path), "change": .string(change.change.rawValue),
                "from_rect": Self.wire(change.fromRect), "to_rect": Self.wire(change.toRect), "curve": curve(change.curve),
            ])
        }
        let slotEntries: [PropValue] = slots.map { slot in
            var entry: [String: PropValue] = [
                "slot": .string(slot.slot.rawValue), "owner": .string(slot.owner), "change": .string(slot.change.rawValue),
                "curve": curve(slot.curve), "path": .string(slot.rootPath),
            ]
            // Compact: a delay that repeats its curve's is left out.
            if !compact || slot.delay != slot.curve.delay { entry["delay"] = .double(slot.delay) }
            return .dictionary(entry)
        }
        let revealEntries: [PropValue] = reveals.map { reveal in
            .dictionary(["path": .string(reveal.path), "delay": .double(reveal.delay), "curve": curve(reveal.curve)])
        }
        var out: [String: PropValue] = [
            "serial": .uint(serial), "interrupts": .uint(interrupts), "cause": .string(cause.rawValue),
            "from": .string(from.rawValue), "to": .string(to.rawValue),
            "from_content": .string(fromContent), "to_content": .string(toContent),
            "conversion": .string(conversion.rawValue), "fresh_window": .bool(freshWindow),
            "reduce_motion": .bool(reduceMotion), "chrome": .dictionary(chromeEntry), "elements": .array(elementEntries),
            "layout": .array(layoutEntries), "slots": .array(slotEntries), "reveals": .array(revealEntries),
            "diagnostics": .array(diagnostics.map { .dictionary($0.wireDictionary) }),
            "font_family": .string(fontFamily),
        ]
        if let delta {
            out["scene_delta"] = .dictionary(delta)
        } else {
            out["scene"] = .dictionary(scene.wireDictionary)
        }
        if !causes.isEmpty { out["causes"] = .array(causes.map { .string($0.rawValue) }) }
        if !undismissible.isEmpty { out["undismissible"] = .array(undismissible.map { .string($0) }) }
        // Only on plans to the board, so other plans keep their exact keys.
        if !boardCells.isEmpty {
            out["board_cells"] = .array(boardCells.map { .dictionary(["owner": .string($0.owner), "rect": Self.wire($0.rect)]) })
        }
        return out
    }

    static func wire(_ rect: Rect) -> PropValue {
        .structure([.double(rect.x), .double(rect.y), .double(rect.width), .double(rect.height)])
    }

    static func wire(_ velocity: RectVelocity) -> PropValue {
        .structure([.double(velocity.x), .double(velocity.y), .double(velocity.width), .double(velocity.height)])
    }
}

extension PlannerScene {
    /// The plan's `scene`: `nodes` (each `slot`, `owner`, `path`, `kind`, `rect`, the node's
    /// props under their contract keys, and `variants`), plus the additions `presentation`,
    /// `chrome` (`rect`, `radius`) and `capsules` (`owner`, `rect`, `radius`), and per node
    /// `expanded_classes` when its classes name a theme rule (`rules.named`), and `suppressed`
    /// (contract 1.1, rule 10) on the pill copies the peek shows.
    public var wireDictionary: [String: PropValue] {
        var out = wireFrame
        out["nodes"] = .array(nodes.map { .dictionary(wireEntry(for: $0)) })
        return out
    }

    /// One entry of `scene.nodes`.
    func wireEntry(for node: SceneNode) -> [String: PropValue] {
        // slot, owner, path, kind, rect, variants, and perhaps expanded_classes, suppressed, index.
        var entry = node.props.rawProps(reservingRoomFor: 9)
        entry["slot"] = .string(node.slot.rawValue)
        entry["owner"] = .string(node.owner)
        entry["path"] = .string(node.path)
        entry["kind"] = .string(node.kind.rawValue)
        entry["rect"] = TransitionPlan.wire(node.rect)
        entry["variants"] = .array(node.variants.map { .dictionary($0.wireDictionary) })
        if let expanded = node.expandedClasses { entry["expanded_classes"] = .string(expanded) }
        // Contract 1.1: only on suppressed nodes, so other scenes keep their exact keys.
        if suppressed.contains(node.path) { entry["suppressed"] = .bool(true) }
        return entry
    }

    /// Everything of the wire scene but its nodes: `presentation`, `chrome`, `capsules`.
    var wireFrame: [String: PropValue] { wireFrame(leavingOutWhatMatches: nil) }

    /// `wireFrame` without the entries `base` would write the same. Each entry's wire form is
    /// equal exactly when the values it is made of are (strings and doubles compare the same
    /// both ways), so the values are compared and the base's entries never built.
    func wireFrame(leavingOutWhatMatches base: PlannerScene?) -> [String: PropValue] {
        // Room for what callers add (`nodes`, or a delta's `base`, `removed`, `upserted`).
        var out = [String: PropValue](minimumCapacity: 6)
        let differs = wireFrameDiffers(from: base)
        if differs.presentation { out["presentation"] = .string(presentation.rawValue) }
        if differs.chrome {
            out["chrome"] = .dictionary(["rect": TransitionPlan.wire(layout.chrome.rect), "radius": .double(layout.chrome.cornerRadius)])
        }
        if differs.capsules {
            out["capsules"] = .array(layout.capsules.map { capsule in
                .dictionary([
                    "owner": .string(capsule.owner), "rect": TransitionPlan.wire(capsule.shape.rect),
                    "radius": .double(capsule.shape.cornerRadius),
                ])
            })
        }
        return out
    }

    /// Which of the frame's entries `base` would not write the same (all of them without a base).
    func wireFrameDiffers(from base: PlannerScene?) -> (presentation: Bool, chrome: Bool, capsules: Bool) {
        (presentation != base?.presentation, layout.chrome != base?.layout.chrome, layout.capsules != base?.layout.capsules)
    }
}
