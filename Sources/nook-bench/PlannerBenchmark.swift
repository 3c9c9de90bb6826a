import Glibc
import NookCore
import NookText

/// Planning cost (SPEC: a typical scene of 8 activities with 64 nodes each, p50 under 50 µs;
/// 10,000 nodes under 10 ms, growing linearly). Each timed run is what the broker pays per
/// plan: preparing the destination scene (layout and namespace resolution of every slot),
/// matching and building the plan. The origin scene is the previous plan's destination, so it
/// is prepared once outside the timing, as the broker keeps it. Run from a release build.
func runPlannerBenchmark() -> [Figure] {
    let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2))
    print("planner: layout + matching + plan per transition")
    print("  case                                        nodes    runs    p50 (µs)    p99 (µs)   p50 per node (ns)")

    // The typical scene: 8 live activities of 64 nodes each (compact 6 + 6, minimal 4, expanded 48).
    let typical = PlannerBenchmarkScenes.activities(8)
    let pill = PlannerScene(presentation: .pill, content: typical.pill, settings: settings)
    let typicalOpen = plannerMeasure("open, nothing reused (8 x 64 nodes)", nodes: 8 * 64, runs: 20_000) {
        let after = PlannerScene(presentation: .expanded, content: typical.expanded, settings: settings)
        return TransitionPlanner.plan(from: pill, to: after, action: PlanAction(cause: .open, serial: 2), settings: settings)
    }
    let expanded = PlannerScene(presentation: .expanded, content: typical.expanded, settings: settings)
    // As the broker runs it: the namespaces of views it prepared before are reused.
    let typicalWarm = plannerMeasure("open, recent scenes reused (8 x 64 nodes)", nodes: 8 * 64, runs: 20_000) {
        let after = PlannerScene(presentation: .expanded, content: typical.expanded, settings: settings, reusing: [pill, expanded])
        return TransitionPlanner.plan(from: pill, to: after, action: PlanAction(cause: .open, serial: 2), settings: settings)
    }
    // The same with text measured in real fonts, as nookd does (fontconfig + HarfBuzz; each
    // string is shaped once and then served from the measurer's cache, as in the broker).
    var measured = settings
    measured.textMeasurement = TextMeasurement(FontTextMeasurer(family: Theme.defaultFontFamily))
    let measuredPill = PlannerScene(presentation: .pill, content: typical.pill, settings: measured)
    let measuredExpanded = PlannerScene(presentation: .expanded, content: typical.expanded, settings: measured)
    let typicalMeasured = plannerMeasure("open, reused, real text metrics (8 x 64)", nodes: 8 * 64, runs: 20_000) {
        let after = PlannerScene(presentation: .expanded, content: typical.expanded, settings: measured,
                                 reusing: [measuredPill, measuredExpanded])
        return TransitionPlanner.plan(from: measuredPill, to: after, action: PlanAction(cause: .open, serial: 2), settings: measured)
    }
    let measuredRatio = typicalMeasured / max(typicalWarm, .leastNonzeroMagnitude)
    print("  real text metrics vs the estimate, typical scene reusing: \(fmt(measuredRatio))x")
    _ = plannerMeasure("close, recent scenes reused (8 x 64 nodes)", nodes: 8 * 64, runs: 20_000) {
        let after = PlannerScene(presentation: .pill, content: typical.pill, settings: settings, reusing: [pill])
        return TransitionPlanner.plan(from: expanded, to: after, action: PlanAction(cause: .close, serial: 3), settings: settings)
    }

    // Growth: one expanded view of n nodes updated with a changed animation value, so every
    // node is compared, moved and every shared element matched.
    var perNode: [Int: Double] = [:]
    var p50At10k = 0.0
    var faultsPerPlanAt10k = 0.0
    for (nodes, runs) in [(64, 20_000), (1_000, 2_000), (10_000, 200)] {
        let old = PlannerBenchmarkScenes.update(nodes: nodes, value: "a")
        let new = PlannerBenchmarkScenes.update(nodes: nodes, value: "b")
        let before = PlannerScene(presentation: .expanded, content: old, settings: settings)
        let faultsBefore = minorPageFaults()
        let p50 = plannerMeasure("content update, every node animates", nodes: nodes, runs: runs) {
            let after = PlannerScene(presentation: .expanded, content: new, settings: settings)
            return TransitionPlanner.plan(
                from: before, to: after, action: PlanAction(cause: .activityUpdated, serial: 2), settings: settings)
        }
        perNode[nodes] = p50 * 1000 / Double(nodes)
        if nodes == 10_000 {
            p50At10k = p50
            // Pages the heap handed back and faulted in again (BrokerHeap.keepPlanningMemory).
            faultsPerPlanAt10k = Double(minorPageFaults() - faultsBefore) / Double(runs + max(3, runs / 20))
            print("    page faults per plan: \(fmt(faultsPerPlanAt10k))")
            // Where the time goes: preparing the destination (SceneGeometry layout, namespace
            // resolution with class parsing) against matching and building the plan.
            let after = PlannerScene(presentation: .expanded, content: new, settings: settings)
            _ = plannerMeasure("  of which: prepare the destination", nodes: nodes, runs: runs) {
                let prepared = PlannerScene(presentation: .expanded, content: new, settings: settings)
                return TransitionPlan(serial: 0, cause: .activityUpdated, from: .expanded, to: .expanded,
                                      chrome: ChromePlan(fromRect: .zero, toRect: .zero, fromRadius: 0, toRadius: 0, curve: .none()),
                                      scene: prepared)
            }
            _ = plannerMeasure("  of which: match and plan", nodes: nodes, runs: runs) {
                TransitionPlanner.plan(from: before, to: after, action: PlanAction(cause: .activityUpdated, serial: 2), settings: settings)
            }
        }
    }
    let small = runSmallScenePublishBenchmark()
    let ratio = (perNode[10_000] ?? 0) / max(perNode[64] ?? 1, .leastNonzeroMagnitude)
    print("  per-node cost, 10,000 vs 64 nodes: \(fmt(ratio))x (about 1 means linear growth)")
    print("  typical scene p50 under 50 µs: cold \(fmt(typicalOpen)) µs \(typicalOpen < 50 ? "yes" : "NO"), "
          + "reusing recent scenes \(fmt(typicalWarm)) µs \(typicalWarm < 50 ? "yes" : "NO")")
    print("  10,000 nodes under 10 ms (p50 \(fmt(p50At10k / 1000)) ms): \(p50At10k < 10_000 ? "yes" : "NO")")
    return [
        Figure(name: "planner typical scene p50 (8 x 64, cold)", value: typicalOpen, unit: "µs", goal: "< 50 µs", ratio: nil, met: typicalOpen < 50),
        Figure(name: "planner typical scene p50 (8 x 64, reusing)", value: typicalWarm, unit: "µs", goal: "< 50 µs", ratio: nil, met: typicalWarm < 50),
        Figure(name: "planner typical scene p50, real text metrics", value: typicalMeasured, unit: "µs", goal: "< 50 µs",
               ratio: measuredRatio, met: typicalMeasured < 50),
        Figure(name: "planner 10,000-node content update p50", value: p50At10k / 1000, unit: "ms", goal: "< 10 ms", ratio: nil, met: p50At10k < 10_000),
        Figure(name: "planner 10,000-node content update, page faults per plan", value: faultsPerPlanAt10k, unit: "pages",
               goal: "none (informational: freed memory reused, not faulted in again)", ratio: nil, met: nil),
        Figure(name: "planner per-node cost 10,000 vs 64", value: ratio, unit: "x", goal: "about 1 (linear)", ratio: nil, met: nil),
        Figure(name: "planner small scene update p50 (broker's publish scene, to the wire)", value: small, unit: "µs", goal: "none",
               ratio: nil, met: nil),
    ]
}

/// Minor page faults of this process so far.
private func minorPageFaults() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_minflt
}

/// Times `body` `runs` times after a warm-up; prints a row and returns the p50 in µs.
private func plannerMeasure(_ label: String, nodes: Int, runs: Int, _ body: () -> TransitionPlan) -> Double {
    var checksum = 0
    for _ in 0..<max(3, runs / 20) { checksum &+= body().elements.count }
    var samples: [Double] = []
    samples.reserveCapacity(runs)
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        let plan = body()
        let elapsed = start.duration(to: clock.now)
        checksum &+= plan.elements.count &+ plan.layout.count
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    let p50 = samples[samples.count / 2]
    let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
    let name = label + String(repeating: " ", count: max(0, 42 - label.count))
    print("  \(name)", String(nodes).leftPadding(7), String(runs).leftPadding(7), fmt(p50).leftPadding(11), fmt(p99).leftPadding(11),
          fmt(p50 * 1000 / Double(nodes)).leftPadding(19), "  (checksum \(checksum % 1000))")
    return p50
}

/// Scenes for the planner benchmark.
enum PlannerBenchmarkScenes {
    /// `count` activities of one module each, 64 nodes per activity; the first is primary.
    static func activities(_ count: Int) -> (pill: SceneContent, expanded: SceneContent) {
        func owner(_ index: Int) -> String { "module\(index)/activity\(index)" }
        var minimal: [OwnedView] = []
        for index in 1..<count { minimal.append(OwnedView(owner: owner(index), view: compact(nodes: 4, marked: false))) }
        let pill = SceneContent(
            compactLeading: OwnedView(owner: owner(0), view: compact(nodes: 6, marked: true)),
            compactTrailing: OwnedView(owner: owner(0), view: compact(nodes: 6, marked: false)), minimal: minimal)
        var expanded = pill
        expanded.expanded = .activity(OwnedView(owner: owner(0), view: panel()))
        return (pill, expanded)
    }

    /// A 48-node expanded view that fits the panel: two columns of rows (icon, title and
    /// subtitle, progress), the first row's icon marked `cover`, one `group` with shared icons.
    static func panel() -> ViewNode {
        var number = 0
        func row() -> ViewNode {
            var icon = ViewNode(kind: .image)
            icon.props.symbol = "music.note"
            if number == 0 { icon.props.shared = SharedMark(id: "cover") } else { icon.props.classes = "shared-[icon\(number)] size-5" }
            var titles = ViewNode(kind: .vstack, children: [text("Track \(number)", size: 11), text("Artist", size: 10)])
            titles.props.alignment = .leading
            titles.props.spacing = 0
            var progress = ViewNode(kind: .progress)
            progress.props.value = 0.4
            progress.props.maxWidth = 40
            number += 1
            return ViewNode(kind: .hstack, children: [icon, titles, progress])
        }
        let left = ViewNode(kind: .vstack, children: (0..<5).map { _ in row() })
        let right = ViewNode(kind: .vstack, children: (0..<4).map { _ in row() })
        var root = ViewNode(kind: .hstack, children: [left, right])
        root.props.classes = "group"
        return root
    }

    /// A small compact view: an hstack of an icon (marked `cover` when asked) and texts.
    static func compact(nodes: Int, marked: Bool) -> ViewNode {
        var icon = ViewNode(kind: .view)
        icon.props.name = "CoverArt"
        icon.props.width = 20
        icon.props.height = 20
        if marked { icon.props.shared = SharedMark(id: "cover") }
        var children = [icon]
        while children.count < nodes - 1 { children.append(text("\(children.count)", size: 11)) }
        return ViewNode(kind: .hstack, children: children)
    }

    static func update(nodes: Int, value: String) -> SceneContent {
        SceneContent(expanded: .activity(OwnedView(owner: "music/song", view: rows(nodes: nodes, value: value))))
    }

    /// A `group` stack of rows (icon marked `shared-[icon<n>]`, two texts, a timer, a
    /// progress bar) with exactly `nodes` nodes; `value` is the scope's animation value, and
    /// the icons grow when it is not "a", so the update moves things.
    static func rows(nodes: Int, value: String) -> ViewNode {
        var rows: [ViewNode] = []
        var remaining = nodes - 1
        var number = 0
        let big = value != "a"
        while remaining >= 6 {
            var icon = ViewNode(kind: .image)
            icon.props.symbol = "music.note"
            icon.props.classes = "shared-[icon\(number)] " + (big ? "size-8" : "size-6")
            var titles = ViewNode(kind: .vstack, children: [text("Track \(number)", size: 13), text("Artist", size: 11)])
            titles.props.alignment = .leading
            var progress = ViewNode(kind: .progress)
            progress.props.value = 0.4
            progress.props.maxWidth = 60
            rows.append(ViewNode(kind: .hstack, children: [icon, titles, progress]))
            remaining -= 6
            number += 1
        }
        while remaining > 0 { rows.append(text("extra \(remaining)", size: 11)); remaining -= 1 }
        var root = ViewNode(kind: .vstack, children: rows)
        root.props.classes = "group animate-smooth"
        root.props.animationValue = value
        return root
    }

    static func text(_ string: String, size: Double) -> ViewNode {
        var node = ViewNode(kind: .text)
        node.props.text = string
        node.props.fontSize = size
        return node
    }
}

/// The planner cases `--profile` runs untimed, for callgrind.
enum PlannerProfileCase: String {
    /// The 10,000-node content update where every node animates.
    case update
    /// The typical scene, 8 x 64 nodes, pill -> expanded, nothing reused.
    case typical
    /// The broker's publish scene, one content update to the wire (`SmallScenePublish`).
    case small
}

/// Runs one planner case `runs` times exactly as the timed benchmark does; returns a checksum
/// so the work cannot be optimised away.
func runPlannerProfile(_ profile: PlannerProfileCase, runs: Int) -> Int {
    let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2))
    var checksum = 0
    switch profile {
    case .update:
        let old = PlannerBenchmarkScenes.update(nodes: 10_000, value: "a")
        let new = PlannerBenchmarkScenes.update(nodes: 10_000, value: "b")
        let before = PlannerScene(presentation: .expanded, content: old, settings: settings)
        for _ in 0..<runs {
            let after = PlannerScene(presentation: .expanded, content: new, settings: settings)
            let plan = TransitionPlanner.plan(
                from: before, to: after, action: PlanAction(cause: .activityUpdated, serial: 2), settings: settings)
            checksum &+= plan.elements.count &+ plan.layout.count
        }
    case .typical:
        let typical = PlannerBenchmarkScenes.activities(8)
        let pill = PlannerScene(presentation: .pill, content: typical.pill, settings: settings)
        for _ in 0..<runs {
            let after = PlannerScene(presentation: .expanded, content: typical.expanded, settings: settings)
            let plan = TransitionPlanner.plan(from: pill, to: after, action: PlanAction(cause: .open, serial: 2), settings: settings)
            checksum &+= plan.elements.count &+ plan.layout.count
        }
    case .small:
        var publish = SmallScenePublish()
        for _ in 0..<runs { checksum &+= publish.next().marshalledSize }
    }
    return checksum
}


/// The broker's publish benchmark (`nook-bench --only broker`) as nookd plans it, without the
/// bus: one activity in the pill (`benchSpec`: a 20x20 `CoverArt` view marked `cover`, the text
/// "track N", the minimal "♪"), one `scene_delta` + `compact_plans` renderer at 1512x982 with
/// a 200x32 notch, and each `UpdateActivity` changing "track N" to "track N+1". Each `next()`
/// makes the calls `RenderSubscriber` and the delivery make per plan, with NookCore types:
/// the destination reusing the scene last sent, the plan from it (the last plan still in
/// flight a frame later, as the bench sends the next update once the plan arrived), the
/// downgrade to the renderer's capabilities, and the compact `scene_delta` wire dictionary.
struct SmallScenePublish {
    private let settings: PlannerSettings
    private let marks: [String: ModuleMarks]
    private var index = 0
    private var presented: PlannerScene
    private var sent: TransitionPlan

    /// Seconds between a plan being sent and the next update's plan: one frame at 1000 Hz.
    private static let elapsed = 0.001

    init() {
        var settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32))
        // As nookd measures text (BrokerConfiguration.measuresTextWithFonts).
        settings.textMeasurement = TextMeasurement(FontTextMeasurer(family: settings.fontFamily))
        self.settings = settings
        marks = ["bench": ModuleMarks(module: "bench", activities: ["song": ["cover"]])]
        let hidden = PlannerScene(presentation: .hidden, content: SceneContent(), settings: settings)
        let first = PlannerScene(presentation: .pill, content: Self.content(0), settings: settings)
        sent = TransitionPlanner.plan(from: hidden, to: first, action: PlanAction(cause: .subscribe, serial: 1), settings: settings, marks: marks)
        presented = sent.scene
    }

    /// The pill's views as the broker decodes and validates them from `benchSpec`'s wire form;
    /// an update changes only the trailing text, set here on the validated node so the
    /// profile counts planning, not validation.
    private static let cover = validated(RawNode(kind: "view", props: ["name": .string("CoverArt"), "width": .double(20), "height": .double(20),
                                                                       "shared": .dictionary(["id": .string("cover")])]), slot: "compact_leading")
    private static let track = validated(RawNode(kind: "text", props: ["text": .string("track 0")]), slot: "compact_trailing")

    private static func validated(_ raw: RawNode, slot: String) -> ViewNode {
        guard let validated = try? ViewValidator().validate(raw, slot: slot) else { fatalError("benchSpec's \(slot) is invalid") }
        return validated.root
    }

    /// The pill for update `index`. One activity: its minimal view shows only beside another
    /// primary activity.
    static func content(_ index: Int) -> SceneContent {
        var track = track
        track.props.text = "track \(index)"
        return SceneContent(compactLeading: OwnedView(owner: "bench/song", view: cover),
                            compactTrailing: OwnedView(owner: "bench/song", view: track))
    }

    /// The next update's content, prepared outside any timing (the broker decodes it on the call).
    mutating func nextContent() -> SceneContent {
        index += 1
        return Self.content(index)
    }

    /// The destination, as `RenderSubscriber.destination(for:presentation:settings:)`.
    func destination(for content: SceneContent) -> PlannerScene {
        PlannerScene(presentation: .pill, content: content, settings: settings, reusing: [presented])
    }

    /// The plan, as `RenderSubscriber.planned(…)` with the destination prepared; the second
    /// plan is as sent (`PlanDowngrade` for a renderer without `crossfade`).
    func plan(to destination: PlannerScene) -> (plan: TransitionPlan, sent: TransitionPlan) {
        let running = Self.elapsed < sent.duration ? InFlightPlan(plan: sent, elapsed: Self.elapsed) : nil
        let plan = TransitionPlanner.plan(from: presented, to: destination, action: PlanAction(cause: .activityUpdated, serial: UInt64(index) + 1),
                                          settings: settings, inFlight: running, marks: marks)
        var downgraded = plan
        for element in downgraded.elements.indices { downgraded.elements[element].crossFade = false }
        return (plan, downgraded)
    }

    /// The `Plan` signal's entries as nookd hands them to NookBus: a compact `scene_delta`
    /// against the last plan sent, its delta worked out (writing it into a message is
    /// `--profile wire`).
    func wire(_ plan: TransitionPlan) -> WirePlan {
        WirePlan(plan, sampleRate: nil, base: (sent.serial, sent.scene), compact: true)
    }

    /// Records `plan` as sent (`RenderSubscriber.didSend`).
    mutating func didSend(_ plan: TransitionPlan) {
        presented = plan.scene
        sent = plan
    }

    /// One whole update: content, destination, plan, wire, recorded as sent.
    mutating func next() -> WirePlan {
        let content = nextContent()
        let planned = plan(to: destination(for: content))
        let wire = wire(planned.sent)
        didSend(planned.plan)
        return wire
    }
}

/// Times the small scene's update step by step; prints rows and returns the total p50 in µs.
func runSmallScenePublishBenchmark(runs: Int = 20_000) -> Double {
    var publish = SmallScenePublish()
    for _ in 0..<max(3, runs / 20) { _ = publish.next() }
    var destination = Samples(), planning = Samples(), wire = Samples(), total = Samples()
    var checksum = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let content = publish.nextContent()
        let start = clock.now
        let prepared = publish.destination(for: content)
        let destined = clock.now
        let planned = publish.plan(to: prepared)
        let planDone = clock.now
        // As the delivery prepares it: the delta; then one walk of it, its size, standing in for
        // the walk that writes the message and counts those bytes on the way (the wire
        // benchmark times the write itself).
        let bytes = publish.wire(planned.sent).marshalledSize
        let end = clock.now
        publish.didSend(planned.plan)
        checksum &+= bytes &+ planned.plan.layout.count
        destination.append(start.duration(to: destined).microseconds)
        planning.append(destined.duration(to: planDone).microseconds)
        wire.append(planDone.duration(to: end).microseconds)
        total.append(start.duration(to: end).microseconds)
    }
    print("  small scene update (the broker's publish scene, one activity in the pill, to the wire; \(runs) runs, checksum \(checksum % 1000)):")
    for (label, samples) in [("destination (layout, namespaces)", destination), ("planning", planning),
                             ("wire plan (compact scene_delta, size)", wire), ("together", total)] {
        print("    " + label.padding(40) + "p50 " + fmt(samples.p50).leftPadding(8) + " µs   p99 " + fmt(samples.p99).leftPadding(8) + " µs")
    }
    return total.p50
}
