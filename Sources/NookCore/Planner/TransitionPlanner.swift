/// The transition planner: a pure function from two scenes, an action and settings (and the
/// plan still in flight, if any) to a `TransitionPlan`.
///
/// Contract
/// - Pure and deterministic: no clocks, no I/O; equal inputs give equal plans. Elapsed time
///   into an in-flight plan is an input, never read from a clock.
/// - Every marked element in a slot that comes, goes or changes either moves (an `elements`
///   entry) or is explained in `diagnostics` with the rule that kept it still.
/// - Every curve is fully resolved, says where it came from, and ends within
///   `motion.maxDuration` (rule 22).
///
/// Steps
/// 1. Context: fresh window (rule 19), Reduce Motion (rule 18), each module's marks (rule 8).
/// 2. Slots: each slot appears, disappears, stays or updates (by slot name and owner).
/// 3. Chrome and curves: which move this is (convert or peek), the chrome's curve, the
///    shared-element curve with its override (rule 14).
/// 4. Surface matching (rules 3, 4, 7-10, 12, 20): see `SurfaceMatching`.
/// 5. The hide dip (rule 13): a claimed open with nothing shared dips through hidden.
/// 6. Surface elements: move on the curve, clipped to the chrome, destination style (rule 5),
///    cross-fade when the views differ (rule 6), hide the staying pill copy (rule 10); the
///    destination scene marks that copy `suppressed` for as long as the pill peeks.
/// 7. Content transitions in slots that stay and change (rules 15-17): `ContentTransition`.
/// 8. Delayed rows of appearing expanded content and elements landing in them (rule 11).
/// 9. Interruption (rule 21): start from the sampled rect, with velocity.
/// 10. The duration cap (rule 22).
/// 11. Diagnostics, in a fixed order: suffixing, the new views' class problems, matching,
///     content, rows, the cap.
///
/// ```swift
/// let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32))
/// let plan = TransitionPlanner.plan(from: pill, to: home, action: PlanAction(cause: .open, serial: 8), settings: settings)
/// plan.elements.first?.key   // "music/cover"
/// ```
public enum TransitionPlanner {
    /// Plans the transition from `before` to `after`.
    /// - Parameters:
    ///   - before: what is on screen now (the previous plan's `scene`).
    ///   - after: the destination.
    ///   - action: cause, serial, how an open was asked for, and a content update's options.
    ///   - settings: theme, display, Reduce Motion, curve overrides.
    ///   - inFlight: the plan still running and how far into it we are (rule 21).
    ///   - marks: for each module, the ids each live activity marks in all its views (rule 8).
    ///     When nil, they are read from the activity views in the two scenes, which misses
    ///     views that are not on screen; the broker should pass the registry's.
    public static func plan(
        from before: PlannerScene, to after: PlannerScene, action: PlanAction, settings: PlannerSettings,
        inFlight: InFlightPlan? = nil, marks: [String: ModuleMarks]? = nil
    ) -> TransitionPlan {
        var builder = PlanBuilder(before: before, after: after, action: action, settings: settings, inFlight: inFlight,
                                  marks: MarkReader(given: marks, before: before, after: after))
        return builder.build()
    }
}

/// The working state of one plan; each method is one step of `TransitionPlanner`'s contract.
struct PlanBuilder {
    let before: PlannerScene
    let after: PlannerScene
    let action: PlanAction
    let settings: PlannerSettings
    let inFlight: InFlightPlan?
    var marks: MarkReader

    var fresh = false
    var slots: [SlotChange] = []
    /// Per slot index: whether the slot is on both sides.
    var stayingOld: [Bool] = []
    var stayingNew: [Bool] = []
    var updated: [(old: Int, new: Int)] = []
    var appearing: [Int] = []
    var chromeCurve = Curve.none()
    var elementCurve = Curve.none()
    var fadeCurve = Curve.none()
    var elements: [ElementMove] = []
    var layout: [LayoutChange] = []
    var reveals: [RowReveal] = []
    var conversion = Conversion.direct
    var hideDip: Double?
    var diagnostics: [Diagnostic] = []

    init(before: PlannerScene, after: PlannerScene, action: PlanAction, settings: PlannerSettings, inFlight: InFlightPlan?,
         marks: MarkReader) {
        self.before = before
        self.after = after
        self.action = action
        self.settings = settings
        self.inFlight = inFlight
        self.marks = marks
    }

    mutating func build() -> TransitionPlan {
        // Step 1: context.
        fresh = action.cause == .subscribe || action.cause == .displayChanged
            || (before.presentation == .hidden && after.presentation != .hidden)

        // Steps 2 and 3.
        diffSlots()
        chooseCurves()

        // Steps 4-6: surface transitions.
        let claimed = fresh ? explainFreshWindowClaimingNothing() : surfaceTransitions()

        // Step 7: content transitions.
        if !fresh {
            for (oldIndex, newIndex) in updated {
                contentTransition(old: before.slots[oldIndex], new: after.slots[newIndex], reduceMotion: settings.reduceMotion, claimed: claimed)
            }
        }

        // The chrome of a presentation that stays follows its content.
        if !fresh && before.presentation == after.presentation { chromeFollowsContent() }

        // Step 8: delayed rows.
        delayedRows()

        // Step 9: interruption.
        var chrome = chromePlan()
        let interrupts = continueInFlight(chrome: &chrome)

        // Step 10: the cap.
        capDurations(chrome: &chrome)

        return assemble(chrome: chrome, interrupts: interrupts)
    }

    /// Step 4-6 for a fresh window: nothing moves, and the diagnostics say why.
    private mutating func explainFreshWindowClaimingNothing() -> (old: Set<String>, new: Set<String>) {
        explainFreshWindow()
        return ([], [])
    }

    /// Steps 4-6: matches the surfaces and moves each pair (or explains why Reduce Motion
    /// keeps it still); returns the element paths the pairs claimed, old and new.
    private mutating func surfaceTransitions() -> (old: Set<String>, new: Set<String>) {
        var claimed: (old: Set<String>, new: Set<String>) = ([], [])
        if SurfaceMatching.nothingMoves(before: before, after: after, staying: (stayingOld, stayingNew)) {
            // Matching would pair nothing and say nothing but the keys' suffixing, the same on
            // both sides (see there): the steps below with no pairs.
            for suffixing in SurfaceMatching.suffixing(before, marks: &marks) where !diagnostics.contains(suffixing) {
                diagnostics.append(suffixing)
            }
            newViewDiagnostics()
            explainCapsuleSwaps()
            decideConversion(hasCounterpart: false)
            return claimed
        }
        let matching = SurfaceMatching(before: before, after: after, staying: (stayingOld, stayingNew), marks: &marks)
        for suffixing in matching.old.suffixing + matching.new.suffixing where !diagnostics.contains(suffixing) {
            diagnostics.append(suffixing)
        }
        newViewDiagnostics()
        diagnostics += matching.diagnostics
        explainCapsuleSwaps()
        decideConversion(hasCounterpart: !matching.pairs.isEmpty)
        for pair in matching.pairs {
            claimed.old.insert(pair.old.element.path)
            claimed.new.insert(pair.new.element.path)
            if settings.reduceMotion {
                diagnostics.append(
                    Diagnostic(
                        .reduceMotion, .info,
                        "\(pair.key) would move from \(pair.old.element.path) to \(pair.new.element.path); Reduce Motion is on, so it fades with its slot",
                        path: pair.new.element.path, module: pair.new.owner.module, activity: pair.new.owner.activity ?? "", id: pair.new.element.id))
            } else {
                elements.append(surfaceMove(pair))
            }
        }
        return claimed
    }

    /// Step 9: the plan in flight, if any, is the one this interrupts; unless the window is
    /// fresh (which drops what was running), everything starts where it is, with its velocity.
    private mutating func continueInFlight(chrome: inout ChromePlan) -> UInt64 {
        // The running plan is read where it is: binding it (`if let`) copied the whole plan.
        guard let elapsed = inFlight?.elapsed else { return 0 }
        if !fresh {
            let interruption = Interruption(elapsed: elapsed)
            interruption.apply(to: &chrome, running: inFlight!.plan)
            interruption.apply(to: &elements, running: inFlight!.plan)
            interruption.apply(to: &layout, running: inFlight!.plan)
        }
        return inFlight!.plan.serial
    }

    /// Step 10: every curve ends within `motion.maxDuration` (rule 22).
    private mutating func capDurations(chrome: inout ChromePlan) {
        var cap = DurationCap(limit: settings.motion.maxDuration, settled: settings.settleTimes)
        if cap.exceeds(chrome.curve) { chrome.curve = cap.apply(chrome.curve, what: "chrome") }
        for index in elements.indices where cap.exceeds(elements[index].curve) {
            elements[index].curve = cap.apply(elements[index].curve, what: "element " + elements[index].toPath)
        }
        for index in layout.indices where cap.exceeds(layout[index].curve) {
            layout[index].curve = cap.apply(layout[index].curve, what: "layout " + layout[index].path)
        }
        for index in slots.indices {
            if cap.exceeds(slots[index].curve) { slots[index].curve = cap.apply(slots[index].curve, what: "slot " + slots[index].rootPath) }
            slots[index].delay = slots[index].curve.delay
        }
        for index in reveals.indices {
            if cap.exceeds(reveals[index].curve) { reveals[index].curve = cap.apply(reveals[index].curve, what: "row " + reveals[index].path) }
            reveals[index].delay = reveals[index].curve.delay
        }
        if let capped = cap.diagnostic { diagnostics.append(capped) }
    }

    /// Step 11: the plan, its diagnostics in the order the steps added them.
    private mutating func assemble(chrome: ChromePlan, interrupts: UInt64) -> TransitionPlan {
        var plan = TransitionPlan(
            serial: action.serial, interrupts: interrupts, cause: action.cause, from: fresh && before.presentation != .hidden ? .hidden : before.presentation,
            to: after.presentation, fromContent: fresh ? "" : before.contentDescription, toContent: after.contentDescription,
            conversion: conversion, freshWindow: fresh, reduceMotion: settings.reduceMotion, chrome: chrome, elements: Self.take(&elements),
            layout: Self.take(&layout), slots: Self.take(&slots), reveals: Self.take(&reveals), diagnostics: Self.take(&diagnostics),
            scene: destinationScene())
        if !action.earlierCauses.isEmpty { plan.causes = action.causes }
        plan.fontFamily = settings.fontFamily
        plan.undismissible = after.content.undismissible
        plan.boardCells = after.layout.slots.filter { $0.slot == .widget }.map { BoardCell(owner: $0.owner, rect: $0.rect) }
        return plan
    }

    /// `array`, moved out and left empty: the plan takes the builder's arrays as they are,
    /// with no retain for the plan and release for the builder, which ends with this plan.
    private static func take<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        return taken
    }

    /// The destination as the plan reports it: with the pill copies the peek shows suppressed
    /// (rule 10), in every plan while the pill peeks, fresh windows and Reduce Motion included.
    mutating func destinationScene() -> PlannerScene {
        var scene = after
        scene.suppressed = SurfaceMatching.shownInPeek(after, marks: &marks)
        return scene
    }

    /// A window rebuilt around what is already showing (a new subscriber, a display change).
    var rebuiltInPlace: Bool { action.cause == .subscribe || action.cause == .displayChanged }

    // MARK: Step 2: slots

    mutating func diffSlots() {
        fadeCurve = settings.motion.fade
        // Scenes hold a handful of slots: a linear search beats hashing owners.
        // `stayingOld` is also which old slots were seen (one array fewer to allocate).
        stayingOld = [Bool](repeating: false, count: before.slots.count)
        stayingNew = [Bool](repeating: false, count: after.slots.count)
        let content = settings.motion.content ?? fadeCurve
        // One change per slot of either side at most, reserved at once rather than grown.
        slots.reserveCapacity(slots.count + after.slots.count + (fresh ? 0 : before.slots.count))
        for index in after.slots.indices {
            let identity = after.slots[index].identity
            let found = fresh ? nil : before.slots.firstIndex { $0.laidOut.slot == identity.slot && $0.laidOut.owner == identity.owner }
            guard let previous = found else {
                appearing.append(index)
                slots.append(SlotChange(slot: identity.slot, owner: identity.owner, change: .appear, curve: fadeCurve))
                continue
            }
            stayingOld[previous] = true
            stayingNew[index] = true
            let sameView = before.slots[previous].withRoot { old in after.slots[index].withRoot { new in Self.sameView(old, new) } }
            if sameView {
                slots.append(SlotChange(slot: identity.slot, owner: identity.owner, change: .stay, curve: .none(source: "stay")))
            } else {
                updated.append((previous, index))
                let animates = action.animate && after.slots[index].withRoot { $0.pointee.props.animate } != false
                slots.append(
                    SlotChange(slot: identity.slot, owner: identity.owner, change: .update,
                               curve: animates ? content : .none(source: "animate: false")))
            }
        }
        if !fresh {
            for index in before.slots.indices where !stayingOld[index] {
                let identity = before.slots[index].identity
                slots.append(SlotChange(slot: identity.slot, owner: identity.owner, change: .disappear, curve: fadeCurve))
            }
        }
    }

    /// `ViewNode`'s `==`, field by field through the pointers: `a.pointee == b.pointee`
    /// copies both nodes first.
    static func sameView(_ a: UnsafePointer<ViewNode>, _ b: UnsafePointer<ViewNode>) -> Bool {
        a.pointee.kind == b.pointee.kind && a.pointee.props == b.pointee.props && a.pointee.children == b.pointee.children
    }

    // MARK: Step 3: curves

    mutating func chooseCurves() {
        let kind = MoveKind(before.presentation, after.presentation)
        chromeCurve = (kind == .peek ? settings.motion.peek : settings.motion.convert) ?? Curve.none(source: kind.chromeToken)
        // A first show grows the chrome out of its hidden point on its usual curve; a new
        // subscriber or a display change simply shows it where it is.
        if rebuiltInPlace { chromeCurve = Curve.none(source: "fresh-window") }
        let override = kind == .peek ? settings.sharedElementPeekAnimation : settings.sharedElementAnimation
        switch override {
        case .theme:
            elementCurve = (kind == .peek ? settings.motion.elementPeek : settings.motion.elementConvert) ?? chromeCurve
        case .chrome:
            elementCurve = chromeCurve
            elementCurve.source = "chrome -> " + chromeCurve.source
        case .curve(let curve):
            elementCurve = curve
            elementCurve.source = "override"
        }
    }

    /// When the presentation stays (a content update), the chrome grows or shrinks with its
    /// content: on the first animating scope's curve, else `transition.content`; not at all
    /// for `animate: false`.
    mutating func chromeFollowsContent() {
        if !action.animate {
            chromeCurve = Curve.none(source: "animate: false")
        } else if let scope = layout.first?.curve ?? elements.first(where: { $0.clip == .none })?.curve {
            chromeCurve = scope
            chromeCurve.source = "content -> " + scope.source
        } else {
            chromeCurve = settings.motion.content ?? chromeCurve
        }
    }

    func chromePlan() -> ChromePlan {
        let from = rebuiltInPlace ? after.layout.chrome : before.layout.chrome
        let to = after.layout.chrome
        guard settings.reduceMotion else {
            return ChromePlan(fromRect: from.rect, toRect: to.rect, fromRadius: from.cornerRadius, toRadius: to.cornerRadius,
                              curve: chromeCurve, hideDip: hideDip)
        }
        return ChromePlan(fromRect: from.rect, toRect: to.rect, fromRadius: from.cornerRadius, toRadius: to.cornerRadius,
                          curve: reduceMotionChromeCurve, hideDip: hideDip, crossFade: true)
    }

    /// Rule 18: a growing chrome is motion, so under Reduce Motion the chrome dissolves from
    /// one shape to the other on the slots' fade, after the hide dip when there is one. A
    /// chrome that would not have animated (`animate: false`, a window rebuilt in place)
    /// still changes at once.
    var reduceMotionChromeCurve: Curve {
        if case .none = chromeCurve.kind { return chromeCurve }
        guard let dip = hideDip else { return fadeCurve }
        guard var delayed = try? fadeCurve.withDelay(fadeCurve.delay + dip) else { return fadeCurve }
        delayed.source += ", after motion.hideDip"
        return delayed
    }

    // MARK: Steps 4-6: surfaces

    /// Rule 19: say, for each mark the new window shows, that it arrives with its slot.
    mutating func explainFreshWindow() {
        newViewDiagnostics()
        for slot in after.slots {
            for element in slot.namespaces.elements where element.key.namespace == .nook && element.isSource {
                diagnostics.append(
                    Diagnostic(
                        .freshWindow, .info,
                        "\(element.key.key) at \(element.path) arrives with its slot: the window starts fresh",
                        path: element.path, module: slot.owner.module, activity: slot.owner.activity ?? "", id: element.id))
            }
        }
    }

    /// Class and group problems in the views that come or change with this plan.
    mutating func newViewDiagnostics() {
        for index in after.slots.indices where !after.slots[index].namespaces.diagnostics.isEmpty {
            if !stayingNew[index] || updated.contains(where: { $0.new == index }) {
                diagnostics += after.slots[index].namespaces.diagnostics
            }
        }
    }

    /// Rule 12: an activity that swaps its capsule for the pill (or back) cross-fades.
    mutating func explainCapsuleSwaps() {
        func has(_ scene: PlannerScene, capsule: Bool) -> Bool {
            scene.slots.contains { slot in
                capsule ? slot.laidOut.slot == .minimal : slot.laidOut.slot == .compactLeading || slot.laidOut.slot == .compactTrailing
            }
        }
        let swaps = (has(before, capsule: true) && has(after, capsule: false)) || (has(after, capsule: true) && has(before, capsule: false))
        guard swaps else { return }
        func owners(_ scene: PlannerScene, _ names: Set<SlotName>) -> Set<String> {
            Set(scene.slots.filter { names.contains($0.name) }.map(\.laidOut.owner))
        }
        let compact: Set<SlotName> = [.compactLeading, .compactTrailing]
        let toPill = owners(before, [.minimal]).intersection(owners(after, compact))
        let toCapsule = owners(before, compact).intersection(owners(after, [.minimal]))
        for owner in toPill.union(toCapsule).sorted() {
            let direction = toPill.contains(owner) ? "from its capsule into the pill" : "from the pill into a capsule"
            diagnostics.append(
                Diagnostic(
                    .capsuleNotShared, .info, "\(owner) moves \(direction); capsules never share elements, so it cross-fades",
                    path: SlotName.minimal.rootPath(owner: owner), module: SlotOwner(parsing: owner).module))
        }
    }

    /// Rule 13.
    mutating func decideConversion(hasCounterpart: Bool) {
        let opensPanel = (before.presentation == .pill || before.presentation == .peek) && after.presentation == .expanded
        guard action.cause == .open, action.via == .claim, opensPanel, !hasCounterpart else { return }
        conversion = .viaHidden
        let dip = settings.motion.hideDip
        hideDip = dip
        // The chrome drops to hidden at once, waits out the dip, then grows into the panel.
        if let delayed = try? chromeCurve.withDelay(chromeCurve.delay + dip) {
            chromeCurve = delayed
            chromeCurve.source += ", after motion.hideDip"
        }
        for index in slots.indices where slots[index].change == .appear {
            if let delayed = try? slots[index].curve.withDelay(dip) {
                slots[index].curve = delayed
                slots[index].curve.source += ", after motion.hideDip"
                slots[index].delay = dip
            }
        }
    }

    func surfaceMove(_ pair: SurfaceMatching.Pair) -> ElementMove {
        let o = pair.old.slotIndex
        let n = pair.new.slotIndex
        // The marked nodes by their laid-out index, as resolution recorded it (not by parsing paths).
        let (oldLayout, newLayout) = (before.slots[o].laidOut.layout, after.slots[n].laidOut.layout)
        let fromNode = ContentTransition.place(of: pair.old.element, in: oldLayout)
        let toNode = ContentTransition.place(of: pair.new.element, in: newLayout)
        let fromRect = fromNode.map { oldLayout.rect(atIndex: $0) } ?? before.slots[o].laidOut.rect
        let toRect = toNode.map { newLayout.rect(atIndex: $0) } ?? after.slots[n].laidOut.rect
        let destination = pair.new.element
        let sameView = if let fromNode, let toNode {
            SameView.matches((oldLayout, before.slots[o].rootStorage), fromNode, (newLayout, after.slots[n].rootStorage), toNode)
        } else {
            false
        }
        return ElementMove(
            fromPath: pair.old.element.path, toPath: destination.path, key: pair.key, namespace: .nook,
            module: pair.new.owner.module, activity: pair.new.owner.activity ?? "", id: destination.id,
            fromSlot: before.slots[o].name, toSlot: after.slots[n].name,
            fromRect: RectMath.start(from: fromRect, to: toRect, properties: destination.properties, anchor: destination.anchor),
            toRect: toRect, style: destination.style, crossFade: !sameView,
            hideSource: pair.old.staying || pair.new.staying, clip: .chrome, properties: destination.properties,
            anchor: destination.anchor, curve: elementCurve)
    }

    // MARK: Step 7: content

    mutating func contentTransition(old: PreparedSlot, new: PreparedSlot, reduceMotion: Bool,
                                    claimed: (old: Set<String>, new: Set<String>)) {
        if new.name == .minimal {
            // Rule 12: no shared motion in capsules.
            for element in new.namespaces.elements where element.isSource {
                diagnostics.append(
                    Diagnostic(.capsuleNotShared, .info, "\(element.key.key) at \(element.path) is in a capsule; capsules never share elements",
                               path: element.path, module: new.owner.module, activity: new.owner.activity ?? "", id: element.id))
            }
            return
        }
        var claimed = claimed
        if after.presentation == .companion && new.name == .home {
            // Rule 20: in a companion window the nook's own marks (`.nookSharedElement`) do
            // nothing, as in seed 000; the rest of the update runs as anywhere (layout moves,
            // insertions and removals, group and caller namespaces: rules 15 to 17). Left out
            // of matching as if claimed, a marked node moves as an unmarked one would.
            for element in old.namespaces.elements where element.key.namespace == .nook { claimed.old.insert(element.path) }
            for element in new.namespaces.elements where element.key.namespace == .nook {
                claimed.new.insert(element.path)
                guard element.isSource else { continue }
                diagnostics.append(
                    Diagnostic(.companion, .info, "\(element.key.key) at \(element.path) is in a companion window, where the nook's marks do nothing",
                               path: element.path, module: new.owner.module, activity: new.owner.activity ?? "", id: element.id))
            }
        }
        // Made, then run in place: an init that ran the walk itself handed back a copy of the
        // whole transition (every layout, namespace and theme retained once more).
        var transition = ContentTransition(old: old, new: new, action: action, theme: settings.theme(forModule: new.owner.module),
                                           marks: marks)
        transition.run(action: action, reduceMotion: reduceMotion, claimed: claimed)
        // Taken whole when there is nothing yet (the usual case), swapped out rather than
        // retained: appending would copy each move and change, large values with many strings.
        if elements.isEmpty { swap(&elements, &transition.elements) } else { elements += transition.elements }
        if layout.isEmpty { swap(&layout, &transition.layout) } else { layout += transition.layout }
        if diagnostics.isEmpty { swap(&diagnostics, &transition.diagnostics) } else { diagnostics += transition.diagnostics }
    }

    // MARK: Step 8: delayed rows

    mutating func delayedRows() {
        let stagger = settings.motion.stagger
        let header = settings.motion.headerDelay
        let base = slots.first { $0.change == .appear }.map { _ in hideDip ?? 0 } ?? 0
        for index in appearing {
            let name = after.slots[index].name
            let isPanel = name == .expanded || name == .widget || (name == .home && after.presentation == .expanded)
            guard isPanel else { continue }
            let rows = RowDelays.reveals(in: after.slots[index], stagger: stagger, header: header)
            guard !rows.isEmpty else { continue }
            let rootPath = after.slots[index].rootPath
            for row in rows {
                let curve = (try? fadeCurve.withDelay(base + row.delay)) ?? fadeCurve
                reveals.append(RowReveal(path: row.path, delay: curve.delay, curve: curve))
            }
            for element in elements where element.toSlot == name && PathPrefix.contains(rootPath, element.toPath) {
                guard let delay = RowDelays.delay(of: element.toPath, in: rows) else { continue }
                diagnostics.append(
                    Diagnostic(
                        .sharedInDelayedRow, .warning,
                        "\(element.key) lands at \(element.toPath) before its row appears (\(PlanText.number(delay)) s later, "
                            + "from motion.stagger / motion.header.delay); keep shared elements in content that arrives at once",
                        path: element.toPath, module: element.module, activity: element.activity, id: element.id))
            }
        }
    }
}
