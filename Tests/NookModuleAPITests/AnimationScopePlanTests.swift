import Testing
import NookCore
@testable import NookModuleAPI

// SPEC rule 17 from the SDK's side: views built with `.tw`, `.twAnimation` and `.twShared`,
// planned as a content update of an expanded activity, give the motion the seed describes.

private let laptop = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)

/// The plan for an expanded activity whose view goes from `old` to `new`.
private func update(_ old: some NookView, _ new: some NookView, animate: Bool = true, reduceMotion: Bool = false,
                    animation: AnimationPreset? = nil) -> TransitionPlan {
    let settings = PlannerSettings(display: laptop, reduceMotion: reduceMotion)
    func scene(_ view: some NookView) -> PlannerScene {
        PlannerScene(presentation: .expanded, content: SceneContent(expanded: .activity(OwnedView(owner: "demo/card", view: view.viewNode))),
                     settings: settings)
    }
    return TransitionPlanner.plan(
        from: scene(old), to: scene(new),
        action: PlanAction(cause: .activityUpdated, serial: 2, animate: animate, callerAnimation: animation?.name), settings: settings)
}

/// A list whose rows grow with `count`, and whose title fades with `dim`.
private struct Rows: NookView {
    var count: Int
    var dim: Bool
    var scoped: Bool

    var body: some NookView {
        let list = VStack {
            Text("Title").opacity(dim ? 0.5 : 1)
            ForEach(0..<count, id: \.self) { _ in
                Rectangle().fill(.gray).frame(width: 40, height: Double(10 + count))
            }
        }
        if scoped {
            list.twAnimation(.animation(.snappy), .duration(0.25), .padding(4), value: count)
        } else {
            list.tw("animate-snappy duration-250")
        }
    }
}

@Test func twWithoutValueAnimatesStyledValuesOnly() throws {
    let plan = update(Rows(count: 2, dim: false, scoped: false), Rows(count: 3, dim: true, scoped: false))
    // The title's opacity animates on the classes; the new row and the taller rows simply appear.
    #expect(plan.layout.map(\.change) == [.style])
    #expect(plan.layout.first?.curve.source == "animate-snappy -> rules.animations.snappy, duration-250")
}

@Test func twAnimationWithValueAnimatesLayoutInsertionAndStyleOnOneCurve() throws {
    let plan = update(Rows(count: 2, dim: false, scoped: true), Rows(count: 3, dim: true, scoped: true))
    let changes = Set(plan.layout.map(\.change))
    #expect(changes == [.move, .insert, .style])
    #expect(plan.layout.allSatisfy { $0.curve.source == "animate-snappy -> rules.animations.snappy, duration-250" })
    // `.padding(4)` in `.twAnimation` decorated nothing: the scope's node has no padding.
    let scope = try #require(plan.scene.nodes.first { $0.props.animationValue != nil })
    #expect(scope.props.classes == "animate-snappy duration-250")
    #expect(scope.props.padding == nil)
    // Removal on the way back.
    let back = update(Rows(count: 3, dim: true, scoped: true), Rows(count: 2, dim: true, scoped: true))
    #expect(back.layout.contains { $0.change == .remove })
}

@Test func scopeWithoutPresetUsesTheUpdatesOwnAnimation() throws {
    struct Card: NookView {
        var big: Bool
        var body: some NookView {
            VStack { Rectangle().fill(.indigo).frame(width: big ? 80 : 40, height: 40).nookSharedElement("cover") }
                .twAnimation(.duration(0.3), value: big)
        }
    }
    let plan = update(Card(big: false), Card(big: true), animation: .bouncy)
    #expect(plan.elements.first?.curve.source == "animation bouncy -> rules.animations.bouncy, duration-300")
    // animate: false (disablesAnimations) and Reduce Motion: the new geometry applies at once.
    #expect(update(Card(big: false), Card(big: true), animate: false, animation: .bouncy).elements.isEmpty)
    let reduced = update(Card(big: false), Card(big: true), reduceMotion: true, animation: .bouncy)
    #expect(reduced.elements.isEmpty && !reduced.layout.contains { $0.change == .move })
}

/// Rule 24 in a plan: where `.twShared` sits decides which rect travels.
@Test func twSharedBeforeFrameInterpolatesTheSizeAndAfterTwCarriesTheStyledSurface() throws {
    let hero = Namespace("hero")
    struct Inner: NookView {
        var big: Bool
        let hero: Namespace
        var body: some NookView {
            VStack {
                // Marked, then framed: the marked shape fills each frame, so the size interpolates.
                Rectangle().fill(.indigo).twShared("cover", in: hero).frame(width: big ? 320 : 80, height: big ? 200 : 80)
            }
            .twAnimation(.animation(.smooth), value: big)
        }
    }
    struct Surface: NookView {
        var big: Bool
        let hero: Namespace
        var body: some NookView {
            VStack {
                // Styled (padding 8 pt round a fixed shape), then marked: the padded surface travels.
                Rectangle().fill(.indigo).frame(width: big ? 60 : 20, height: 20).tw("p-2 bg-indigo-500").twShared("card", in: hero)
            }
            .twAnimation(.animation(.smooth), value: big)
        }
    }
    let inner = try #require(update(Inner(big: false, hero: hero), Inner(big: true, hero: hero)).elements.first)
    #expect((inner.fromRect.width, inner.fromRect.height, inner.toRect.width, inner.toRect.height) == (80, 80, 320, 200))
    let surface = try #require(update(Surface(big: false, hero: hero), Surface(big: true, hero: hero)).elements.first)
    #expect((surface.fromRect.width, surface.fromRect.height, surface.toRect.width, surface.toRect.height) == (36, 36, 76, 36))
}

/// Issue 44, part 6: `.twShared` takes any `Hashable`. An id whose description is not a valid
/// wire id ("My Song", a struct, a long description) is sent as a valid id made from it, the
/// same for the same value, different for different ones, so the element still travels and
/// the view is not refused.
@Test func rule1_twSharedMapsAnyHashableIdToAValidStableOne() throws {
    struct Track: Hashable { var album: String; var number: Int }
    let hero = Namespace("hero")
    let odd: [AnyHashable] = ["My Song", Track(album: "Blue (Deluxe)", number: 7), String(repeating: "long id ", count: 40), "plain-id"]
    for id in odd {
        let wire = StableText.sharedID(id)
        #expect(Identifier.isValid(wire), "\(id) went out as \(wire)")
        #expect(StableText.sharedID(id) == wire, "not stable: \(id)")
    }
    #expect(StableText.sharedID("plain-id") == "plain-id", "a valid id is sent as it is")
    #expect(StableText.sharedID("My Song") != StableText.sharedID("My_Song"), "two ids map to one")
    #expect(StableText.sharedID(Track(album: "A", number: 1)) != StableText.sharedID(Track(album: "A", number: 2)))

    // On the wire: the broker's validator accepts it, and the element travels between views.
    struct Card: NookView {
        var id: AnyHashable
        var hero: Namespace
        var big: Bool
        var body: some NookView {
            VStack { Rectangle().fill(.indigo).frame(width: big ? 80 : 40, height: 40).twShared(id, in: hero) }
                .twAnimation(.duration(0.3), value: big)
        }
    }
    for id in odd {
        let view = Card(id: id, hero: hero, big: false)
        _ = try ViewValidator().validate(view.viewNode.rawNode, slot: "expanded")
        let plan = update(view, Card(id: id, hero: hero, big: true))
        #expect(plan.elements.count == 1, "\(id): \(plan.elements.count) elements travel")
    }
}
