import Testing
import NookHeroCard
@testable import NookCore
@testable import NookModuleAPI

// The seeds' code samples compile nearly verbatim (see SeedMusicSamples.swift and
// SeedHeroSamples.swift) and encode to nodes the broker accepts and resolves as intended.

private func validated(_ node: ViewNode, slot: String) throws -> (root: ViewNode, diagnostics: [Diagnostic]) {
    let view = try ViewValidator().validate(node.rawNode, slot: slot)
    #expect(view.diagnostics.isEmpty)
    #expect(view.root == node)
    return view
}

private func marks(_ node: ViewNode, slot: String, owner: SlotOwner) -> [SharedElement] {
    SlotNamespaces(resolving: node, slot: slot, owner: owner).elements
}

@Test func seedCoverArtMarkedInCompactLeadingAndHomeMatchesWithinTheModule() throws {
    let configuration = seedModuleConfiguration(player: samplePlayer)
    #expect(configuration.setContentCalls.map(\.slot) == [.compactLeading, .home])
    let leading = try #require(configuration.content[.compactLeading]).view
    let home = try #require(configuration.content[.home]).view

    #expect(
        leading.rawNode == node(
            "view",
            ["name": .string("CoverArt"), "width": .double(20), "height": .double(20), "shared": sharedProps("cover")],
            [node("image", ["uri": .string("file:///covers/weightless.png")])]))
    #expect(home.kind == .hstack)
    #expect(home.children[0].props.name == "CoverArt")
    #expect(home.children[0].props.width == 156)
    #expect(home.children[0].props.shared == SharedMark(id: "cover"))
    #expect(home.children[1].props.name == "TrackDetails")

    for call in configuration.setContentCalls { _ = try call.validated() }
    let owner = SlotOwner(module: "music")
    let pill = marks(leading, slot: "compact_leading", owner: owner)
    let panel = marks(home, slot: "home", owner: owner)
    #expect(pill.map(\.key) == [SharedKey(.nook, "music/cover")])
    #expect(panel.map(\.key) == [SharedKey(.nook, "music/cover")])
    #expect(panel.first?.path == "home/0")
}

@Test func seedSongActivityPublishesEveryViewWithTheCoverMarked() throws {
    let song = seedSongActivity(player: samplePlayer)
    let spec = song.startSpec(sequence: 1)
    #expect(
        Set(spec.keys) == [
            "accessibility_label", "compact_leading", "compact_trailing", "minimal", "peek", "expanded", "sequence",
        ])
    #expect(spec["accessibility_label"] == .string("Now playing"))
    #expect(spec["minimal"] == .node(node("image", ["symbol": .string("music.note")])))

    let owner = SlotOwner(module: "music", activity: "song")
    for (key, view) in song.views {
        _ = try validated(view, slot: key)
        #expect(spec[key] == .node(view.rawNode))
    }
    #expect(marks(song.compactLeading, slot: "compact_leading", owner: owner).map(\.id) == ["cover"])
    #expect(marks(try #require(song.peek), slot: "peek", owner: owner).map(\.id) == ["cover"])
    #expect(marks(try #require(song.expanded), slot: "expanded", owner: owner).map(\.id) == ["cover"])
    #expect(song.compactTrailing.props.name == "EqualizerBars")
    #expect(song.compactTrailing.children[0].children.map(\.props.height) == [6.4, 14.8, 10])
}

@Test func seedTimerTextMarkedWithScaleStyle() throws {
    let timer = CountdownTimer(id: "tea", end: NookInstant(unixMicroseconds: 1_700_000_180_000_000))
    let view = TimerText(timer: timer).nookSharedElement("timer", style: .scale)
    let raw = try wire(view, slot: "compact_trailing")
    #expect(
        raw == node(
            "view", ["name": .string("TimerText"), "shared": sharedProps("timer", style: "scale")],
            [
                node(
                    "text",
                    [
                        "timer_end": .int(1_700_000_180_000_000), "font_size": .double(15), "font_weight": .string("medium"),
                        "monospaced_digits": .bool(true),
                    ])
            ]))
    let element = try #require(marks(view.viewNode, slot: "compact_trailing", owner: SlotOwner(module: "timer")).first)
    #expect(element.style == .scale)
}

/// Examples/HeroCard's card: the group scope animates on `expanded`, the cover is the shared
/// mark, the button (a padded hstack, `role: button`) names its action `toggle`, and focus is
/// the group's explicit state.
@Test func seedHeroCardEncodesGroupScopeAndSharedCover() throws {
    let collapsed = try wire(HeroCard(expanded: false))
    let expanded = try wire(HeroCard(expanded: true))
    let focused = try wire(HeroCard(expanded: false, focused: true))
    func cover(_ classes: String) -> RawNode {
        node(
            "shape",
            [
                "shape": .string("rounded_rect"), "corner_radius": .double(16), "color": .string("#5856D6"),
                "classes": .string(classes),
            ])
    }
    func card(_ value: String, _ coverClasses: String, focus: Bool = false) -> RawNode {
        node("view", ["name": .string("HeroCard")], [
            node(
                "vstack",
                [
                    "classes": .string("group/hero animate-smooth duration-400"), "animation_value": .string(value),
                    "group_state": .dictionary(["focus": .bool(focus)]),
                ],
                [
                    node("zstack", [:], [cover(coverClasses)]),
                    // A titled button: its text in an hstack padded for the plate, `role: button`.
                    node(
                        "hstack",
                        [
                            "action": .string("toggle"), "role": .string("button"),
                            "padding": .structure([.double(5), .double(12), .double(5), .double(12)]),
                            "classes": .string("button-primary opacity-60 group-focus/hero:opacity-100 dark:group-hover/hero:opacity-70"),
                        ],
                        [node("text", ["text": .string("Toggle")])]),
                ])
        ])
    }
    #expect(collapsed == card("false", "shared-[cover] w-20 h-20"))
    #expect(expanded == card("true", "shared-[cover] w-80 h-50"))
    #expect(focused == card("false", "shared-[cover] w-20 h-20", focus: true))
}

@Test func seedHeroCardClassesParseAsIntended() {
    let scope = ClassList(parsing: "group/hero animate-smooth duration-400")
    #expect(scope.group == GroupDeclaration(name: "hero"))
    #expect(scope.animation == AnimationClasses(preset: .smooth, duration: 0.4))
    #expect(scope.diagnostics.isEmpty && scope.passthrough.isEmpty)

    let small = ClassList(parsing: "shared-[cover] w-20 h-20")
    let large = ClassList(parsing: "shared-[cover] w-80 h-50")
    #expect(small.shared == SharedClass(id: "cover") && large.shared == SharedClass(id: "cover"))
    #expect(small.layout == [.width(80), .height(80)])
    #expect(large.layout == [.width(320), .height(200)])
}

@Test func seedHeroCardCoverResolvesToTheSameGroupKeyOnBothSides() {
    let owner = SlotOwner(module: "cards")
    let before = marks(HeroCard(expanded: false).viewNode, slot: "home", owner: owner)
    let after = marks(HeroCard(expanded: true).viewNode, slot: "home", owner: owner)
    #expect(before.count == 1 && after.count == 1)
    #expect(before.first?.key.namespace == .group)
    #expect(before.first?.key == after.first?.key)
    #expect(before.first?.groupPath == "home/0")
    // `button-primary` is the seed's theme rule: with a theme that names it, nothing to say.
    let theme = ["button-primary": "bg-indigo-500 rounded-full"]
    #expect(SlotNamespaces(resolving: HeroCard().viewNode, slot: "home", owner: owner, namedRules: theme).diagnostics.isEmpty)
}

@Test func seedCallerNamespacePairMatchesAndKeepsTitleOptions() throws {
    let owner = SlotOwner(module: "cards")
    let small = try wire(HeroTitleCard(expanded: false), slot: "home")
    let large = try wire(HeroTitleCard(expanded: true), slot: "home")
    // Marked before the frame: the cover is the inner node, the frame its wrapper.
    let smallCover = small.children[0].children[0]
    #expect(smallCover.kind == "zstack" && smallCover.props["width"] == .double(80))
    #expect(smallCover.children[0].props["shared"] == sharedProps("cover", namespace: "hero"))
    #expect(
        large.children[0].children[1].props["shared"]
            == sharedProps("title", namespace: "hero", properties: "position", anchor: "leading"))
    #expect(large.children[0].props["classes"] == .string("animate-smooth duration-400"))

    let keysBefore = marks(HeroTitleCard(expanded: false).viewNode, slot: "home", owner: owner).map(\.key)
    let keysAfter = marks(HeroTitleCard(expanded: true).viewNode, slot: "home", owner: owner).map(\.key)
    #expect(keysBefore == keysAfter)
    #expect(keysBefore == [SharedKey(.custom, "cards/home/ns:hero/cover"), SharedKey(.custom, "cards/home/ns:hero/title")])
}
