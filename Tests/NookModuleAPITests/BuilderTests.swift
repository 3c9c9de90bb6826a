import Testing
import NookCore
@testable import NookModuleAPI

// Control flow in builders and custom views' names, params and bodies.

private struct Badge: NookView {
    var count: Int
    var body: some NookView {
        if count > 0 {
            Text("\(count)")
        }
    }
}

private struct Toggle: NookView {
    var on: Bool
    var body: some NookView {
        if on {
            Image(systemName: "on")
        } else {
            Text("off")
        }
    }
}

private enum Mode { case a, b, c }

private struct Switcher: NookView {
    var mode: Mode
    var body: some NookView {
        switch mode {
        case .a: Text("a")
        case .b: Circle()
        case .c: EmptyView()
        }
    }
}

@Test func ifWithoutElseYieldsTheViewOrNothing() throws {
    #expect(try wire(Badge(count: 3)).children == [node("text", ["text": .string("3")])])
    #expect(try wire(Badge(count: 0)) == node("view", ["name": .string("Badge")]))
}

@Test func ifElseYieldsTheBranchTaken() throws {
    #expect(try wire(Toggle(on: true)).children == [node("image", ["symbol": .string("on")])])
    #expect(try wire(Toggle(on: false)).children == [node("text", ["text": .string("off")])])
}

@Test func switchYieldsTheCaseTaken() throws {
    #expect(try wire(Switcher(mode: .a)).children.map(\.kind) == ["text"])
    #expect(try wire(Switcher(mode: .b)).children.map(\.kind) == ["shape"])
    #expect(try wire(Switcher(mode: .c)).children.isEmpty)
}

@Test func ifLetAndForLoopsWork() throws {
    let artist: String? = "Nina"
    let missing: String? = nil
    let raw = try wire(
        VStack {
            if let artist { Text(artist) }
            if let missing { Text(missing) }
            for index in 0..<3 {
                Text("row \(index)")
            }
        })
    #expect(raw.children.map(\.props["text"]) == [.string("Nina"), .string("row 0"), .string("row 1"), .string("row 2")])
}

@Test func modifiersApplyInsideBranches() throws {
    let expanded = true
    let raw = try wire(
        ZStack {
            if expanded {
                Circle().frame(width: 80)
            } else {
                Circle().frame(width: 20)
            }
        })
    #expect(raw.children == [node("shape", ["shape": .string("circle"), "width": .double(80)])])
}

private struct Artwork: NookView {
    var uri: String
    var body: some NookView { Image(uri: uri) }
}

private struct Card: NookView {
    var title: String
    var body: some NookView {
        VStack(alignment: .leading) {
            Artwork(uri: "a.png")
            Text(title)
        }
    }
}

@Test func customViewIsAViewNodeNamedAfterItsTypeWithItsBodyAsChildren() throws {
    #expect(try wire(Artwork(uri: "a.png")) == node("view", ["name": .string("Artwork")], [node("image", ["uri": .string("a.png")])]))
}

@Test func nestedCustomViewsNestViewNodes() throws {
    let raw = try wire(Card(title: "Hi"))
    #expect(
        raw == node("view", ["name": .string("Card")], [
            node("vstack", ["alignment": .string("leading")], [
                node("view", ["name": .string("Artwork")], [node("image", ["uri": .string("a.png")])]),
                node("text", ["text": .string("Hi")]),
            ])
        ]))
}

private struct Meter: NookView {
    static var nookViewName: String { "LevelMeter" }
    var level: Double
    var nookParams: [String: PropValue] { ["level": .double(level)] }
    var body: some NookView { Capsule() }
}

@Test func customViewCanRenameItselfAndSendParams() throws {
    let raw = try wire(Meter(level: 0.5))
    #expect(raw.props == ["name": .string("LevelMeter"), "params": .dictionary(["level": .double(0.5)])])
}

private struct Boxed<Content: NookView>: NookView {
    var content: Content
    var body: some NookView { ZStack { content } }
}

@Test func genericCustomViewNameIncludesItsArguments() throws {
    #expect(try wire(Boxed(content: Text("a"))).props["name"] == .string("Boxed<Text>"))
}

@Test func customViewBodyWithSeveralViewsGivesSeveralChildren() throws {
    struct Pair: NookView {
        var body: some NookView {
            Text("a")
            Text("b")
        }
    }
    #expect(try wire(Pair()).children.count == 2)
}

@Test func sameViewOnBothSidesDiffersOnlyInSize() throws {
    // Rule 6: same kind, same custom view name and content, ignoring size.
    var small = Artwork(uri: "a.png").frame(width: 20, height: 20).viewNode
    var large = Artwork(uri: "a.png").frame(width: 156, height: 156).viewNode
    small.props.width = nil; small.props.height = nil
    large.props.width = nil; large.props.height = nil
    #expect(small == large)
}
