import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Surface transitions: rules 2 to 14, one test (or more) per rule.
@Suite struct PlannerSurfaceTests {
    @Test func rule2_markingChangesNoLayout() {
        let marked = F.openSong()
        let plain = F.openSong(
            pill: F.songContent(leading: F.cover(20, id: nil)),
            expanded: F.vstack([F.cover(120, id: nil), F.text("Song title", size: 17), F.text("Artist")]))
        let markedRects = marked.scene.nodes.map { ($0.path, $0.rect) }
        let plainRects = plain.scene.nodes.map { ($0.path, $0.rect) }
        #expect(markedRects.map(\.0) == plainRects.map(\.0))
        #expect(markedRects.map(\.1) == plainRects.map(\.1))
        #expect(marked.chrome.fromRect == plain.chrome.fromRect && marked.chrome.toRect == plain.chrome.toRect)
        // The marks change what moves (and so the hide dip), never where anything is.
        #expect(plain.elements.isEmpty)
    }

    /// Rule 9's explanations where a pair could have been meant, not as noise: an activity that
    /// arrives where nothing of its module was has nothing to pair with and hears nothing, while
    /// a cover marked in the pill and left unmarked in the same activity's expanded view is named.
    @Test func rule9_noCounterpartOnlyWhereAPairCouldHaveBeenMeant() {
        // A timer shows in the pill; a song starts and takes the pill: nothing of music was there.
        let timer = SceneContent(
            compactLeading: F.owned("timer/eggs", F.image("timer")), compactTrailing: F.owned("timer/eggs", F.cover(20, id: "timer")))
        let started = F.plan(F.scene(.pill, timer), F.scene(.pill, F.songContent(minimal: [F.owned("timer/eggs", F.image("timer"))])),
                             cause: .activityStarted)
        #expect(started.elements.isEmpty)
        #expect(!started.diagnostics(.noCounterpart).contains { $0.module == "music" }, "\(started.diagnostics)")
        // The timer's countdown, gone into its capsule, could have been meant to stay: named.
        #expect(started.diagnostics(.noCounterpart).contains { $0.module == "timer" }, "\(started.diagnostics)")

        let unmarked = F.openSong(expanded: F.vstack([F.cover(120, id: nil), F.text("Song title", size: 17)]))
        #expect(unmarked.elements.isEmpty)
        #expect(unmarked.diagnostics(.noCounterpart).contains { $0.path == "compact_leading" && $0.module == "music" },
                "\(unmarked.diagnostics)")
    }

    @Test func rule3_nookIdsMatchWithinTheirModuleOnly() {
        // Both modules mark "cover"; the pill shows music's, the nook opens onto podcast's home.
        let pill = F.songContent()
        var open = pill
        open.expanded = .home(F.owned("podcast", F.hstack([F.cover(120), F.text("Episode")])))
        let plan = F.plan(F.scene(.pill, pill), F.scene(.expanded, open), cause: .open)
        #expect(plan.elements.isEmpty)
        #expect(plan.diagnostics(.noCounterpart).contains { $0.path == "compact_leading" && $0.module == "music" })
        #expect(plan.diagnostics(.noCounterpart).contains { $0.path == "home/0" && $0.module == "podcast" })

        // The same module's home does match.
        var own = pill
        own.expanded = .home(F.owned("music", F.musicHome))
        let moves = F.plan(F.scene(.pill, pill), F.scene(.expanded, own), cause: .open)
        #expect(moves.elements.map(\.key) == ["music/cover"])

        // Group namespaces never cross surfaces.
        let grouped = F.songContent(leading: F.node(.zstack, [F.node(.view) { $0.width = 20; $0.height = 20; $0.classes = "shared-[art]" }]) { $0.classes = "group" })
        var groupedOpen = grouped
        groupedOpen.expanded = .activity(F.owned("music/song", F.node(.zstack, [F.node(.view) { $0.width = 90; $0.height = 90; $0.classes = "shared-[art]" }]) { $0.classes = "group" }))
        #expect(F.plan(F.scene(.pill, grouped), F.scene(.expanded, groupedOpen), cause: .open).elements.isEmpty)
    }

    @Test func rule4_uniqueKeyMovesClippedToChrome() throws {
        let plan = F.openSong()
        #expect(plan.elements.count == 1)
        let cover = try #require(plan.elements.first)
        #expect(cover.key == "music/cover.song")
        #expect(cover.namespace == .nook)
        #expect(cover.module == "music" && cover.activity == "song" && cover.id == "cover")
        #expect((cover.fromSlot, cover.toSlot) == (.compactLeading, .expanded))
        #expect((cover.fromPath, cover.toPath) == ("compact_leading", "expanded/0"))
        #expect(cover.clip == .chrome)
        let pill = F.scene(.pill, F.songContent())
        #expect(F.close(cover.fromRect, pill.slots[0].rect(at: "compact_leading")))
        #expect(F.close(cover.toRect, plan.scene.slots[0].rect(at: "expanded/0")))
        #expect(cover.toRect.width == 120)
        // On the chrome's curve for the move (the convert token aliases the chrome's).
        #expect(cover.curve.kind == plan.chrome.curve.kind)
        // Everything else keeps its slot transition.
        #expect(plan.slots.map(\.change) == [.appear, .disappear, .disappear])
    }

    @Test func rule5_destinationStyleWins() throws {
        let pill = F.songContent(trailing: F.timer(size: 12, style: .resize))
        let plan = F.openSong(pill: pill, expanded: F.vstack([F.timer(size: 40, style: .scale)]))
        let timer = try #require(plan.elements.first { $0.id == "timer" })
        #expect(timer.style == .scale)

        let back = F.openSong(pill: F.songContent(trailing: F.timer(size: 12, style: .scale)),
                              expanded: F.vstack([F.timer(size: 40, style: .resize)]))
        #expect(back.elements.first { $0.id == "timer" }?.style == .resize)
    }

    @Test func rule6_sameViewMovesDifferentViewsCrossFade() throws {
        let same = try #require(F.openSong().elements.first)
        #expect(!same.crossFade)
        let different = try #require(F.openSong(expanded: F.vstack([F.cover(156, name: "BigArtwork")])).elements.first)
        #expect(different.crossFade)
        #expect(different.key == "music/cover.song")
    }

    @Test func rule7_pillMovesIntoItsOwnViewsAndItsModulesHomeAndWidget() {
        let pill = F.songContent()
        // Another activity of the same module: its expanded view's cover is not this pill's.
        var other = pill
        other.expanded = .activity(F.owned("music/radio", F.vstack([F.cover(156)])))
        let marks = ["music": ModuleMarks(module: "music", activities: ["song": ["cover"], "radio": ["cover"]])]
        let plan = F.plan(F.scene(.pill, pill), F.scene(.expanded, other), cause: .open, marks: marks)
        #expect(plan.elements.isEmpty)

        // The module's widget on the board.
        var board = pill
        board.expanded = .board([F.owned("weather", F.text("Sunny")), F.owned("music", F.hstack([F.cover(40), F.text("Now")]))])
        let toBoard = F.plan(F.scene(.pill, pill), F.scene(.expanded, board), cause: .open)
        #expect(toBoard.elements.map(\.toPath) == ["music:widget/0"])
        #expect(toBoard.elements.first?.toSlot == .widget)
        #expect(toBoard.toContent == "board")

        // Its peek and its module's home.
        var home = pill
        home.expanded = .home(F.owned("music", F.musicHome))
        #expect(F.plan(F.scene(.pill, pill), F.scene(.expanded, home), cause: .open).elements.map(\.toPath) == ["home/0"])
        let peek = F.songContent(peek: F.songPeek)
        #expect(F.plan(F.scene(.pill, pill), F.scene(.peek, peek), cause: .peek).elements.map(\.toPath) == ["peek/0"])
    }

    @Test func rule8_twoActivitiesOfOneModuleAnswerToSuffixedKeys() {
        // Two timers: the pill shows tea, eggs sits in a capsule; the home marks both.
        let pill = SceneContent(
            compactLeading: F.owned("timer/tea", F.image("timer")), compactTrailing: F.owned("timer/tea", F.timer(size: 12)),
            minimal: [F.owned("timer/eggs", F.timer(size: 10))])
        var open = pill
        open.expanded = .home(F.owned("timer", F.vstack([F.timer(size: 30, id: "timer.eggs"), F.timer(size: 30, id: "timer.tea")])))
        let plan = F.plan(F.scene(.pill, pill), F.scene(.expanded, open), cause: .open)
        #expect(plan.elements.map(\.key) == ["timer/timer.tea"])
        #expect(plan.elements.first?.toPath == "home/1")
        let suffixed = plan.diagnostics(.idSuffixed)
        #expect(suffixed.contains { $0.module == "timer" && $0.id == "timer" })
        // A home that marks the plain id meets nobody: neither activity holds the plain key.
        var plainHome = pill
        plainHome.expanded = .home(F.owned("timer", F.vstack([F.timer(size: 30)])))
        #expect(F.plan(F.scene(.pill, pill), F.scene(.expanded, plainHome), cause: .open).elements.isEmpty)
    }

    @Test func rule9_duplicateSourcesKeepOnlyThatKeyStill() {
        let expanded = F.vstack([F.cover(156), F.cover(80), F.text("Song", id: "title")])
        let pill = F.songContent(trailing: F.text("Song", size: 11, id: "title"))
        let plan = F.openSong(pill: pill, expanded: expanded)
        #expect(plan.elements.map(\.id) == ["title"])
        let duplicates = plan.diagnostics(.duplicateSource)
        #expect(duplicates.allSatisfy { $0.id == "cover" && $0.module == "music" })
        // A warning names the duplicated copies; the lone pill copy facing them is told why it stays.
        #expect(duplicates.contains { $0.severity == .warning && $0.path == "expanded/0" && $0.message.contains("expanded/1") })
        #expect(duplicates.contains { $0.severity == .info && $0.path == "compact_leading" })

        // A follower copy is fine.
        let withFollower = F.vstack([F.cover(156), F.cover(80, isSource: false)])
        let followed = F.openSong(expanded: withFollower)
        #expect(followed.elements.map(\.toPath) == ["expanded/0"])
        #expect(followed.diagnostics(.duplicateSource).isEmpty)
        #expect(followed.diagnostics(.follower).contains { $0.path == "expanded/1" })
    }

    @Test func rule10_peekShowsSharedElementInPeekOnly() throws {
        let pillContent = F.songContent()
        let peekContent = F.songContent(peek: F.songPeek)
        let pill = F.scene(.pill, pillContent)
        let peek = F.scene(.peek, peekContent)
        let opening = F.plan(pill, peek, cause: .peek)
        let out = try #require(opening.elements.first)
        #expect(opening.elements.count == 1)
        #expect((out.fromPath, out.toPath) == ("compact_leading", "peek/0"))
        #expect(out.hideSource)
        #expect(opening.slots.first { $0.slot == .compactLeading }?.change == .stay)
        // Onwards to the panel, the hidden pill copy is explained rather than moved.
        var panel = peekContent
        panel.expanded = .activity(F.owned("music/song", F.songExpanded))
        let onward = F.plan(peek, F.scene(.expanded, panel), cause: .open)
        #expect(onward.diagnostics(.shownInPeek).map(\.path) == ["compact_leading"])

        let closing = F.plan(peek, pill, cause: .endPeek, serial: 3)
        let back = try #require(closing.elements.first)
        #expect((back.fromPath, back.toPath) == ("peek/0", "compact_leading"))
        #expect(back.hideSource)
        // Peek -> expanded: the peek copy moves on; nothing stays behind.
        var expanded = peekContent
        expanded.expanded = .activity(F.owned("music/song", F.songExpanded))
        let onwards = F.plan(peek, F.scene(.expanded, expanded), cause: .open)
        #expect(onwards.elements.map(\.fromPath) == ["peek/0"])
        #expect(onwards.elements.first?.hideSource == false)
    }

    @Test func rule11_sharedInStaggeredRowWarns() throws {
        let staggered = F.vstack([F.text("Now playing") { $0.role = .header }, F.text("Song"), F.cover(120)]) { $0.stagger = true }
        let plan = F.openSong(expanded: staggered)
        let cover = try #require(plan.elements.first)
        #expect(cover.toPath == "expanded/2")
        let warning = try #require(plan.diagnostics(.sharedInDelayedRow).first)
        #expect(warning.severity == .warning && warning.path == "expanded/2" && warning.id == "cover")
        // Header waits motion.header.delay; rows wait index × motion.stagger.
        let delays = Dictionary(uniqueKeysWithValues: plan.reveals.map { ($0.path, $0.delay) })
        #expect(abs(delays["expanded/0"]! - 0.08) < 1e-9)
        #expect(abs(delays["expanded/1"]! - 0.03) < 1e-9)
        #expect(abs(delays["expanded/2"]! - 0.06) < 1e-9)
        // Content that arrives at once: no warning.
        #expect(F.openSong().diagnostics(.sharedInDelayedRow).isEmpty)
    }

    @Test func rule12_capsulesNeverShare() {
        // Eggs was in a capsule and becomes the primary activity: it cross-fades.
        let before = SceneContent(
            compactLeading: F.owned("timer/tea", F.image("timer")), compactTrailing: F.owned("timer/tea", F.timer(size: 12, id: "tea")),
            minimal: [F.owned("timer/eggs", F.timer(size: 10, id: "eggs"))])
        let after = SceneContent(
            compactLeading: F.owned("timer/eggs", F.image("timer")), compactTrailing: F.owned("timer/eggs", F.timer(size: 12, id: "eggs")),
            minimal: [F.owned("timer/tea", F.timer(size: 10, id: "tea"))])
        let plan = F.plan(F.scene(.pill, before), F.scene(.pill, after), cause: .activityUpdated)
        #expect(plan.elements.isEmpty)
        let notes = plan.diagnostics(.capsuleNotShared)
        #expect(notes.contains { $0.path == "timer/eggs:minimal" && $0.severity == .info })
        #expect(notes.contains { $0.path == "timer/eggs:minimal" && $0.id == "eggs" })
        #expect(notes.contains { $0.path == "timer/tea:minimal" })
    }

    @Test func rule13_claimWithSharedCounterpartConvertsDirectly() {
        let plan = F.openSong(via: .claim)
        #expect(plan.conversion == .direct)
        #expect(plan.chrome.hideDip == nil)
    }

    @Test func rule13_claimWithoutCounterpartDipsThroughHidden() throws {
        let plan = F.openSong(expanded: F.vstack([F.text("Song title"), F.cover(156, id: nil)]), via: .claim)
        #expect(plan.conversion == .viaHidden)
        #expect(plan.chrome.hideDip == 0.12)
        #expect(plan.chrome.curve.delay == 0.12)
        #expect(plan.chrome.curve.source == "transition.convert, after motion.hideDip")
        let appearing = try #require(plan.slots.first { $0.change == .appear })
        #expect(appearing.delay == 0.12)
        #expect(plan.elements.isEmpty)
    }

    @Test func rule13_hoverAlwaysConvertsDirectly() {
        let plan = F.openSong(expanded: F.vstack([F.text("Song title")]), via: .hover)
        #expect(plan.conversion == .direct)
        // Closing never dips either.
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.vstack([F.text("x")])))
        #expect(F.plan(F.scene(.expanded, open), F.scene(.pill, F.songContent()), cause: .close).conversion == .direct)
    }

    @Test func rule14_curvesComeFromTheSharedElementTokens() throws {
        let convert = try #require(F.openSong().elements.first)
        #expect(convert.curve.source == "motion.sharedElement.convert -> transition.convert")
        let peek = F.plan(F.scene(.pill, F.songContent()), F.scene(.peek, F.songContent(peek: F.songPeek)), cause: .peek)
        #expect(peek.elements.first?.curve.source == "motion.sharedElement.peek -> transition.peek")
        #expect(peek.chrome.curve.source == "transition.peek")
        // A theme override of the token is followed.
        let theme = try Theme.builtIn.applying(["motion.sharedElement.convert": .string("{transition.peek}")])
        let themed = F.openSong(settings: F.settings(theme: theme))
        #expect(themed.elements.first?.curve.source == "motion.sharedElement.convert -> transition.peek")
    }

    @Test func rule14_overridesReplaceOrRideTheChrome() throws {
        let custom = try Curve.linear(duration: 0.25)
        let overridden = F.openSong(settings: F.settings(convert: .curve(custom)))
        #expect(overridden.elements.first?.curve.kind == .linear(duration: 0.25))
        #expect(overridden.elements.first?.curve.source == "override")
        let chrome = F.openSong(settings: F.settings(convert: .chrome))
        #expect(chrome.elements.first?.curve.source == "chrome -> transition.convert")
        #expect(chrome.elements.first?.curve.kind == chrome.chrome.curve.kind)
        // The peek override only touches pill <-> peek.
        let peekOnly = F.openSong(settings: F.settings(peek: .curve(custom)))
        #expect(peekOnly.elements.first?.curve.source == "motion.sharedElement.convert -> transition.convert")
    }
}
