import Testing
@testable import NookCore

private typealias F = LayoutFixture

/// Each presentation's geometry on a notched laptop display and a notchless desktop one.
@Suite struct LayoutSceneTests {
    static let laptop = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)
    static let desktop = DisplayInfo(width: 1920, height: 1080, notchWidth: 0, notchHeight: 0, scale: 1)

    static let content = SceneContent(
        compactLeading: OwnedView(module: "music", activity: "song", view: F.box(20, 20) { $0.name = "CoverArt" }),
        compactTrailing: OwnedView(module: "music", activity: "song", view: F.image()),
        minimal: [
            OwnedView(module: "timer", activity: "tea", view: F.image()),
            OwnedView(module: "timer", activity: "eggs", view: F.image()),
            OwnedView(module: "mail", activity: "inbox", view: F.image()),
        ],
        peek: OwnedView(module: "music", activity: "song", view: F.box(300, 40)),
        expanded: .activity(OwnedView(module: "music", activity: "song",
                                      view: F.vstack([F.box(156, 156) { $0.name = "CoverArt" }, F.text("Song")]))),
        companion: OwnedView(module: "music", view: F.vstack([F.text("Library"), F.shape()])))

    static func scene(_ presentation: Presentation, on display: DisplayInfo, _ content: SceneContent = content,
                      tokens: GeometryTokens = GeometryTokens()) -> SceneLayout {
        SceneGeometry.layout(display: display, tokens: tokens, presentation: presentation, content: content)
    }

    @Test func hiddenHasAnEmptyChromeAtTheTopCentreAndNoSlots() {
        for (display, centre) in [(Self.laptop, 756.0), (Self.desktop, 960.0)] {
            let scene = Self.scene(.hidden, on: display)
            #expect(scene.chrome == ChromeShape(rect: F.rect(centre, 0, 0, 0), cornerRadius: 0))
            #expect(scene.slots.isEmpty)
            #expect(scene.capsules.isEmpty)
        }
    }

    @Test func pillHugsTheNotchWithCompactViewsEitherSide() throws {
        let scene = Self.scene(.pill, on: Self.laptop)
        // Each side: 10 + 20 + 10 around a 200 pt notch.
        #expect(scene.chrome == ChromeShape(rect: F.rect(616, 0, 280, 32), cornerRadius: 16))
        let leading = try #require(scene.slot(.compactLeading))
        #expect(leading.owner == "music/song")
        #expect(leading.rect == F.rect(626, 5, 20, 22))
        #expect(leading.layout.rect(at: "compact_leading") == F.rect(626, 6, 20, 20))
        let trailing = try #require(scene.slot(.compactTrailing))
        #expect(trailing.rect == F.rect(866, 5, 20, 22))
        #expect(trailing.layout.rect(at: "compact_trailing") == F.rect(866, 6, 20, 20))
    }

    @Test func pillWorksWithoutANotch() throws {
        let scene = Self.scene(.pill, on: Self.desktop)
        #expect(scene.chrome.rect == F.rect(920, 0, 80, 32))
        #expect(try #require(scene.slot(.compactLeading)).rect == F.rect(930, 5, 20, 22))
        #expect(try #require(scene.slot(.compactTrailing)).rect == F.rect(970, 5, 20, 22))
        // With nothing to show and no notch the pill is a circle, not a sliver.
        let empty = Self.scene(.pill, on: Self.desktop, SceneContent())
        #expect(empty.chrome == ChromeShape(rect: F.rect(944, 0, 32, 32), cornerRadius: 16))
    }

    @Test func pillStaysSymmetricAboutTheNotch() throws {
        var content = Self.content
        content.compactTrailing = OwnedView(module: "music", activity: "song", view: F.box(60, 10))
        let scene = Self.scene(.pill, on: Self.laptop, content)
        // Both sides take the wider side's 10 + 60 + 10.
        #expect(scene.chrome.rect == F.rect(576, 0, 360, 32))
        #expect(scene.chrome.rect.midX == 756)
        // The narrower leading view sits at the pill's leading end.
        #expect(try #require(scene.slot(.compactLeading)).rect.minX == 586)
        #expect(try #require(scene.slot(.compactTrailing)).rect == F.rect(866, 5, 60, 22))
    }

    @Test func compactSlotsAreCappedAtTheirMaximumWidth() throws {
        var content = SceneContent()
        content.compactLeading = OwnedView(module: "news", view: F.text(String(repeating: "headline ", count: 20)))
        let scene = Self.scene(.pill, on: Self.laptop, content)
        let leading = try #require(scene.slot(.compactLeading))
        #expect(leading.rect.width <= 120)
        #expect(leading.rect.height == 22)
        #expect(leading.owner == "news")
    }

    @Test func capsulesAlternateRightThenLeftOfThePill() {
        for (display, pillMinX, pillMaxX) in [(Self.laptop, 616.0, 896.0), (Self.desktop, 920.0, 1000.0)] {
            let scene = Self.scene(.pill, on: display)
            #expect(scene.capsules.map(\.owner) == ["timer/tea", "timer/eggs", "mail/inbox"])
            #expect(scene.capsules.map(\.shape.rect) == [
                F.rect(pillMaxX + 8, 0, 32, 32), F.rect(pillMinX - 40, 0, 32, 32), F.rect(pillMaxX + 48, 0, 32, 32),
            ])
            #expect(scene.capsules.allSatisfy { $0.shape.cornerRadius == 16 })
            let minimal = scene.slots.filter { $0.slot == .minimal }
            #expect(minimal.map(\.layout.root?.path) == ["timer/tea:minimal", "timer/eggs:minimal", "mail/inbox:minimal"])
            #expect(minimal[0].layout.rect(at: "timer/tea:minimal") == F.rect(pillMaxX + 14, 6, 20, 20))
        }
    }

    @Test func peekGrowsThePillDownAndKeepsItsSlots() throws {
        let pill = Self.scene(.pill, on: Self.laptop)
        let scene = Self.scene(.peek, on: Self.laptop)
        #expect(scene.chrome == ChromeShape(rect: F.rect(576, 0, 360, 104), cornerRadius: 24))
        #expect(scene.slot(.compactLeading) == pill.slot(.compactLeading))
        #expect(scene.slot(.compactTrailing) == pill.slot(.compactTrailing))
        let peek = try #require(scene.slot(.peek))
        #expect(peek.owner == "music/song")
        #expect(peek.rect == F.rect(586, 32, 340, 62))
        #expect(peek.layout.rect(at: "peek") == F.rect(606, 43, 300, 40))
        #expect(scene.capsules.map(\.shape.rect.minX) == [944, 536, 984])

        let desktop = Self.scene(.peek, on: Self.desktop)
        #expect(desktop.chrome.rect == F.rect(780, 0, 360, 104))
        #expect(try #require(desktop.slot(.peek)).rect == F.rect(790, 32, 340, 62))
    }

    @Test func peekIsAsWideAsAWiderPill() {
        var tokens = GeometryTokens()
        tokens.peekWidth = 100
        let scene = Self.scene(.peek, on: Self.laptop, tokens: tokens)
        #expect(scene.chrome.rect == F.rect(616, 0, 280, 104))
    }

    @Test func expandedPanelFitsItsContentBelowTheNotch() throws {
        let scene = Self.scene(.expanded, on: Self.laptop)
        // 156 cover + 8 + 12 text = 176 = 240 - 32 notch - 2 * 16 padding: a full panel.
        #expect(scene.chrome == ChromeShape(rect: F.rect(516, 0, 480, 240), cornerRadius: 32))
        let slot = try #require(scene.slot(.expanded))
        #expect(slot.owner == "music/song")
        #expect(slot.rect == F.rect(532, 48, 448, 176))
        #expect(slot.layout.rect(at: "expanded/0") == F.rect(678, 48, 156, 156))
        #expect(scene.capsules.isEmpty)
        #expect(scene.slot(.compactLeading) == nil)

        let desktop = Self.scene(.expanded, on: Self.desktop)
        #expect(desktop.chrome.rect == F.rect(720, 0, 480, 208))
        #expect(try #require(desktop.slot(.expanded)).rect == F.rect(736, 16, 448, 176))
    }

    @Test func expandedPanelStopsAtItsMaximumHeight() throws {
        var content = Self.content
        content.expanded = .home(OwnedView(module: "music", view: F.vstack([F.box(100, 100), F.box(100, 100), F.box(100, 100)])))
        for display in [Self.laptop, Self.desktop] {
            let scene = Self.scene(.expanded, on: display, content)
            #expect(scene.chrome.rect.height == 240)
            let home = try #require(scene.slot(.home, owner: "music"))
            #expect(home.rect.maxY == 240 - 16)
        }
        var short = Self.content
        short.expanded = .home(OwnedView(module: "music", view: F.box(100, 40)))
        #expect(Self.scene(.expanded, on: Self.laptop, short).chrome.rect == F.rect(516, 0, 480, 104))
        #expect(Self.scene(.expanded, on: Self.desktop, short).chrome.rect == F.rect(720, 0, 480, 72))
    }

    @Test func boardIsAGridOfWidgets() throws {
        var content = Self.content
        content.expanded = .board(["music", "weather", "timer"].map { OwnedView(module: $0, view: F.vstack([F.text($0), F.shape()])) })
        let scene = Self.scene(.expanded, on: Self.laptop, content)
        let widgets = scene.slots.filter { $0.slot == .widget }
        #expect(widgets.map(\.owner) == ["music", "weather", "timer"])
        #expect(widgets.map(\.rect) == [F.rect(532, 48, 218, 96), F.rect(762, 48, 218, 96), F.rect(532, 156, 218, 96)])
        #expect(widgets[1].layout.root?.path == "weather:widget")
        #expect(widgets[1].layout.rect(at: "weather:widget/1")?.width == 218)
        // Two rows (204 pt) do not fit the 176 pt left under the notch: the panel stops at 240.
        #expect(scene.chrome.rect.height == 240)

        let desktop = Self.scene(.expanded, on: Self.desktop, content)
        #expect(desktop.slots.filter { $0.slot == .widget }.map(\.rect.origin) == [
            Point(x: 736, y: 16), Point(x: 966, y: 16), Point(x: 736, y: 124),
        ])
        var threeColumns = GeometryTokens()
        threeColumns.boardColumns = 3
        let wide = Self.scene(.expanded, on: Self.desktop, content, tokens: threeColumns)
        #expect(wide.chrome.rect.height == 16 + 96 + 16)
    }

    @Test func companionIsAWindowInTheTopRightCornerBesideThePill() throws {
        for (display, windowX) in [(Self.laptop, 1128.0), (Self.desktop, 1536.0)] {
            let scene = Self.scene(.companion, on: display)
            let pill = Self.scene(.pill, on: display)
            #expect(scene.companionWindow == ChromeShape(rect: F.rect(windowX, 24, 360, 420), cornerRadius: 16))
            #expect(scene.chrome == pill.chrome)
            let home = try #require(scene.slot(.home))
            #expect(home.owner == "music")
            #expect(home.rect == F.rect(windowX + 16, 40, 328, 388))
            #expect(home.layout.rect(at: "home/1")?.width == 328)
        }
    }

    @Test func topInsetMovesTheWholeNookDown() {
        var tokens = GeometryTokens()
        tokens.topInset = 6
        let scene = Self.scene(.pill, on: Self.desktop, tokens: tokens)
        #expect(scene.chrome.rect.minY == 6)
        #expect(scene.slots.allSatisfy { $0.rect.minY >= 6 })
    }

    @Test func everyNodePathInASceneIsUnique() {
        var content = Self.content
        content.expanded = .board(["music", "weather"].map { OwnedView(module: $0, view: F.hstack([F.text($0), F.image()])) })
        for presentation in Presentation.allCases {
            let scene = Self.scene(presentation, on: Self.laptop, content)
            let paths = scene.slots.flatMap { $0.layout.nodes.map(\.path) }
            #expect(Set(paths).count == paths.count, "\(presentation)")
        }
    }

    @Test func badDisplayAndTokensNeverProduceNaN() {
        var tokens = GeometryTokens()
        tokens.pillHeight = .nan
        tokens.expandedWidth = -10
        tokens.boardColumns = .infinity
        let display = DisplayInfo(width: .nan, height: -1, notchWidth: .infinity, notchHeight: 40, scale: 0)
        var content = Self.content
        content.expanded = .board([OwnedView(module: "a", view: F.image())])
        for presentation in Presentation.allCases {
            let scene = SceneGeometry.layout(display: display, tokens: tokens, presentation: presentation, content: content)
            let rects = [scene.chrome.rect] + scene.slots.flatMap { [$0.rect] + $0.layout.nodes.map(\.rect) }
            #expect(rects.allSatisfy { [$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) && $0.width >= 0 && $0.height >= 0 })
        }
    }
}

@Suite struct LayoutGeometryTokenTests {
    @Test func tokenPathsCoverEveryGeometryTokenWithItsDefault() {
        let defaults: [String: Double] = [
            "geometry.topInset": 0, "geometry.pill.height": 32, "geometry.pill.cornerRadius": 16,
            "geometry.pill.slotPadding": 10, "geometry.pill.slotMaxWidth": 120, "geometry.capsule.size": 32,
            "geometry.capsule.spacing": 8, "geometry.peek.width": 360, "geometry.peek.height": 72,
            "geometry.peek.cornerRadius": 24, "geometry.expanded.width": 480, "geometry.expanded.maxHeight": 240,
            "geometry.expanded.cornerRadius": 32, "geometry.expanded.padding": 16, "geometry.board.columns": 2,
            "geometry.board.spacing": 12, "geometry.board.widgetHeight": 96, "geometry.companion.width": 360,
            "geometry.companion.height": 420, "geometry.companion.cornerRadius": 16, "geometry.companion.margin": 24,
        ]
        let tokens = GeometryTokens()
        #expect(GeometryTokens.tokenPaths.count == defaults.count)
        #expect(Set(GeometryTokens.tokenPaths.map(\.path)) == Set(defaults.keys))
        for entry in GeometryTokens.tokenPaths {
            #expect(tokens[keyPath: entry.keyPath] == defaults[entry.path], "\(entry.path)")
        }
    }

    @Test func tokensAreSetByPathInOneLoop() {
        let resolved = ["geometry.peek.width": 400.0, "geometry.board.columns": 3, "geometry.unknown": 1]
        var tokens = GeometryTokens()
        for entry in GeometryTokens.tokenPaths {
            if let value = resolved[entry.path] { tokens[keyPath: entry.keyPath] = value }
        }
        #expect(tokens.peekWidth == 400)
        #expect(tokens.boardColumnCount == 3)
        tokens[path: "geometry.capsule.size"] = 28
        #expect(tokens.capsuleSize == 28)
        #expect(tokens[path: "geometry.capsule.size"] == 28)
        #expect(tokens[path: "geometry.unknown"] == nil)
    }

    @Test func enumsSpellTheContractsStrings() {
        #expect(Presentation.allCases.map(\.rawValue) == ["hidden", "pill", "peek", "expanded", "companion"])
        #expect(SlotName.allCases.map(\.rawValue) == ["compact_leading", "compact_trailing", "minimal", "peek", "expanded", "home", "widget"])
        #expect(SlotName.widget.rootPath(owner: "music") == "music:widget")
        #expect(SlotName.home.rootPath(owner: "music") == "home")
    }
}

/// Scene properties over seeded random content on both displays.
@Suite struct LayoutScenePropertyTests {
    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX - Geometry.epsilon && b.minX < a.maxX - Geometry.epsilon
            && a.minY < b.maxY - Geometry.epsilon && b.minY < a.maxY - Geometry.epsilon
    }

    @Test(arguments: Array(UInt64(1)...60))
    func slotsStayInsideTheChromeAndCapsulesOutsideIt(seed: UInt64) {
        var random = LayoutRandomTrees(seed: seed)
        var content = SceneContent(
            compactLeading: OwnedView(module: "m", activity: "a", view: random.tree(depth: 2)),
            compactTrailing: OwnedView(module: "m", activity: "a", view: random.tree(depth: 2)),
            minimal: (0..<Int(seed % 5)).map { OwnedView(module: "m", activity: "b\($0)", view: random.tree(depth: 1)) },
            peek: OwnedView(module: "m", activity: "a", view: random.tree(depth: 3)),
            expanded: .activity(OwnedView(module: "m", activity: "a", view: random.tree(depth: 3))),
            companion: OwnedView(module: "m", view: random.tree(depth: 3)))
        if seed.isMultiple(of: 3) { content.expanded = .home(OwnedView(module: "m", view: random.tree(depth: 3))) }
        var problems: [String] = []
        for display in [LayoutSceneTests.laptop, LayoutSceneTests.desktop] {
            for presentation in Presentation.allCases {
                let scene = SceneGeometry.layout(display: display, tokens: GeometryTokens(), presentation: presentation, content: content)
                for slot in scene.slots where slot.slot != .minimal && slot.slot != .home || presentation == .expanded {
                    if !scene.chrome.rect.contains(slot.rect) { problems.append("\(presentation) \(slot.slot) \(slot.rect) outside \(scene.chrome.rect)") }
                }
                for capsule in scene.capsules where Self.overlaps(capsule.shape.rect, scene.chrome.rect) {
                    problems.append("\(presentation) capsule \(capsule.owner) overlaps the chrome")
                }
                for (i, a) in scene.capsules.enumerated() {
                    for b in scene.capsules[(i + 1)...] where Self.overlaps(a.shape.rect, b.shape.rect) {
                        problems.append("\(presentation) capsules \(a.owner) and \(b.owner) overlap")
                    }
                }
                if let window = scene.companionWindow, let home = scene.slot(.home), !window.rect.contains(home.rect) {
                    problems.append("companion home outside its window")
                }
                if presentation != .hidden, !(scene.chrome.rect.minX <= display.width / 2 && scene.chrome.rect.maxX >= display.width / 2) {
                    problems.append("\(presentation) chrome not centred")
                }
                let again = SceneGeometry.layout(display: display, tokens: GeometryTokens(), presentation: presentation, content: content)
                if again != scene { problems.append("\(presentation) not deterministic") }
            }
        }
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
    }
}
