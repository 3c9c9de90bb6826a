import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Seeded random scenes and transitions, checked against what must hold for every plan:
/// explainability, rects from the scenes, the duration cap, determinism.
@Suite struct PlannerPropertyTests {
    /// A random activity view: stacks of covers, texts and timers, some marked with ids from
    /// a small pool so that counterparts, duplicates and followers all occur.
    struct Generator {
        var rng: SeededGenerator
        let ids = ["cover", "timer", "title", "art"]

        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        mutating func leaf() -> ViewNode {
            let id: String? = chance(0.5) ? ids.randomElement(using: &rng) : nil
            let source = chance(0.85)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return F.cover(Double(Int.random(in: 8...120, using: &rng)), id: id, isSource: source)
            case 1: return F.text("t\(Int.random(in: 0..<9, using: &rng))", size: 11, id: id)
            default: return F.timer(size: Double(Int.random(in: 10...30, using: &rng)), id: id)
            }
        }

        mutating func view(depth: Int = 2) -> ViewNode {
            guard depth > 0, chance(0.7) else { return leaf() }
            let children = (0..<Int.random(in: 1...3, using: &rng)).map { _ in view(depth: depth - 1) }
            return chance(0.5) ? F.vstack(children) { $0.stagger = self.chance(0.2) } : F.hstack(children)
        }

        mutating func content() -> SceneContent {
            let owners = ["music/song", "music/radio", "timer/tea"]
            let primary = owners.randomElement(using: &rng)!
            var content = SceneContent(
                compactLeading: F.owned(primary, view(depth: 1)), compactTrailing: F.owned(primary, view(depth: 1)),
                minimal: owners.filter { $0 != primary && chance(0.6) }.map { F.owned($0, leaf()) },
                peek: chance(0.5) ? F.owned(primary, view()) : nil)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: content.expanded = .activity(F.owned(primary, view()))
            case 1: content.expanded = .home(F.owned(SlotOwner(parsing: primary).module, view()))
            default: content.expanded = .board([F.owned("music", view(depth: 1)), F.owned("timer", view(depth: 1))])
            }
            return content
        }
    }

    @Test func everyMarkedElementMovesOrIsExplained() {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_1A7E)
        var generator = Generator(rng: SeededGenerator(seed: seed))
        let presentations: [Presentation] = [.hidden, .pill, .peek, .expanded, .companion]
        var failures: [String] = []
        for round in 0..<300 {
            var content = generator.content()
            if generator.chance(0.3) { content.companion = F.owned("music", generator.view()) }
            let from = presentations.randomElement(using: &generator.rng)!
            let to = presentations.randomElement(using: &generator.rng)!
            let next = generator.chance(0.5) ? content : generator.content()
            let settings = F.settings(reduceMotion: generator.chance(0.15))
            let before = F.scene(from, content, settings)
            let after = F.scene(to, next, settings)
            let cause: PlanCause = [.open, .close, .peek, .endPeek, .activityUpdated, .show].randomElement(using: &generator.rng)!
            let via: OpenVia = generator.chance(0.5) ? .claim : .hover
            let plan = F.plan(before, after, cause: cause, via: via, settings: settings)

            // Determinism.
            if plan != F.plan(before, after, cause: cause, via: via, settings: settings) {
                failures.append("round \(round): not deterministic")
            }
            // Rects come from the scenes.
            for element in plan.elements where element.properties == .frame {
                let from = before.slots.lazy.compactMap { $0.rect(at: element.fromPath) }.first
                let to = after.slots.lazy.compactMap { $0.rect(at: element.toPath) }.first
                if !F.close(element.fromRect, from) || !F.close(element.toRect, to) {
                    failures.append("round \(round): \(element.key) rects do not come from the scenes")
                }
            }
            // The cap.
            if plan.duration > 2 + 1e-6 { failures.append("round \(round): runs \(plan.duration) s") }
            // Reduce Motion and fresh windows move nothing.
            if (plan.reduceMotion || plan.freshWindow) && !plan.elements.isEmpty {
                failures.append("round \(round): elements despite reduce motion / fresh window")
            }
            // Under Reduce Motion the chrome dissolves, without it it never does (rule 18).
            if plan.chrome.crossFade != plan.reduceMotion { failures.append("round \(round): chrome cross_fade \(plan.chrome.crossFade)") }
            // Explainability: every nook source in a slot that appeared or disappeared either
            // moved or is named by a diagnostic, wherever a pair could have been meant: the
            // other scene shows its module or marks its id.
            let changing = Set(plan.slots.filter { $0.change == .appear || $0.change == .disappear }.map(\.rootPath))
            let moved = Set(plan.elements.flatMap { [$0.fromPath, $0.toPath] })
            let explained = Set(plan.diagnostics.map(\.path))
            for (scene, other, side) in [(before, after, "before"), (after, before, "after")] {
                let otherModules = Set(other.slots.map(\.owner.module))
                let otherIds = Set(other.slots.flatMap { $0.namespaces.elements.map(\.id) })
                for slot in scene.slots where changing.contains(slot.rootPath) {
                    for element in slot.namespaces.elements where element.key.namespace == .nook && element.isSource
                        && (otherModules.contains(slot.owner.module) || otherIds.contains(element.id))
                    {
                        // Named by a diagnostic's path, or in its message (a pair's diagnostic names both ends).
                        let named = plan.diagnostics.contains { diagnostic in
                            [" ", ";", ",", ")"].contains { diagnostic.message.contains(element.path + $0) }
                        }
                        if !moved.contains(element.path) && !explained.contains(element.path) && !named
                            && !explained.contains(slot.rootPath)
                        {
                            failures.append("round \(round): \(side) \(element.path) (\(element.id)) neither moved nor explained, \(from) -> \(to) \(cause)")
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(SeededGenerator.replay(seed)): \(failures.count) failures, first: \(failures.prefix(5))")
    }

    /// A random group-scoped view whose marks and sizes vary with `seed`, under a scope whose
    /// value is `value`.
    static func scoped(_ generator: inout Generator, value: String, classes: String) -> ViewNode {
        var children: [ViewNode] = []
        for index in 0..<Int.random(in: 1...4, using: &generator.rng) {
            let side = Int.random(in: 2...20, using: &generator.rng)
            let id = ["a", "b", "c"].randomElement(using: &generator.rng)!
            var node = F.node(.shape) { $0.classes = "shared-[\(id)] size-\(side)" }
            if generator.chance(0.3) { node.props.shared = SharedMark(id: "n\(index % 2)") }
            if generator.chance(0.2) { node.props.opacity = generator.chance(0.5) ? 0.5 : 1 }
            children.append(generator.chance(0.3) ? F.vstack([node]) { $0.classes = "group" } : node)
        }
        return F.vstack(children) { $0.classes = classes; $0.animationValue = value }
    }

    @Test func contentUpdatesMoveOrExplainAndRespectTheirOptions() {
        let seed = SeededGenerator.runSeed(pinned: 0xC0_47E47)
        var generator = Generator(rng: SeededGenerator(seed: seed))
        var failures: [String] = []
        for round in 0..<300 {
            let classes = ["group animate-smooth", "group animate-snappy duration-300", "group", "group animate-linear delay-50"]
                .randomElement(using: &generator.rng)!
            let old = Self.scoped(&generator, value: "1", classes: classes)
            let new = Self.scoped(&generator, value: generator.chance(0.7) ? "2" : "1", classes: classes)
            let animate = generator.chance(0.8)
            let caller: String? = generator.chance(0.2) ? "bouncy" : nil
            let settings = F.settings(reduceMotion: generator.chance(0.15))
            func content(_ view: ViewNode) -> SceneContent { SceneContent(expanded: .activity(F.owned("demo/card", view))) }
            let before = F.scene(.expanded, content(old), settings)
            let after = F.scene(.expanded, content(new), settings)
            let plan = F.plan(before, after, cause: .activityUpdated, animate: animate, callerAnimation: caller, settings: settings)
            guard let oldSlot = before.slots.first, let newSlot = after.slots.first else { continue }

            if !animate && !(plan.elements.isEmpty && plan.layout.isEmpty) { failures.append("round \(round): animated despite animate: false") }
            if settings.reduceMotion && (!plan.elements.isEmpty || plan.layout.contains { $0.change != .style } || !plan.chrome.crossFade) {
                failures.append("round \(round): moved under Reduce Motion")
            }
            if plan.duration > 2 + 1e-6 { failures.append("round \(round): runs \(plan.duration) s") }
            for element in plan.elements {
                if element.clip != .none { failures.append("round \(round): content element clipped to the chrome") }
                if element.properties == .frame,
                   !F.close(element.fromRect, oldSlot.rect(at: element.fromPath)) || !F.close(element.toRect, newSlot.rect(at: element.toPath)) {
                    failures.append("round \(round): \(element.key) rects do not come from the views")
                }
            }
            for change in plan.layout where oldSlot.rect(at: change.path) == nil && newSlot.rect(at: change.path) == nil {
                failures.append("round \(round): layout entry for unknown path \(change.path)")
            }
            // Every source whose node moved either has an element or a diagnostic naming it.
            let moved = Set(plan.elements.flatMap { [$0.fromPath, $0.toPath] })
            let named = Set(plan.diagnostics.map(\.path))
            for element in newSlot.namespaces.elements where element.isSource {
                guard let to = newSlot.rect(at: element.path) else { continue }
                if let from = oldSlot.rect(at: element.path), from.isClose(to: to) { continue }
                if !moved.contains(element.path) && !named.contains(element.path)
                    && !plan.diagnostics.contains(where: { $0.message.contains(element.path) }) {
                    failures.append("round \(round): \(element.key) at \(element.path) neither moved nor explained")
                }
            }
        }
        #expect(failures.isEmpty, "\(SeededGenerator.replay(seed)): \(failures.count) failures, first: \(failures.prefix(5))")
    }
}
