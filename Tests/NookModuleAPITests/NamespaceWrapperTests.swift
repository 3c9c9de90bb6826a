import NookCore
import NookModuleAPI
import Testing

/// `@Namespace var hero` as in SwiftUI: each instance of a view gets its own namespace,
/// the same on every update.
private struct Hero: NookView {
    @Namespace var hero
    var big: Bool
    var body: some NookView {
        VStack {
            Rectangle().twShared("cover", in: hero).frame(width: big ? 80 : 20, height: big ? 50 : 20)
            Caption(hero: hero)
        }
    }
}

/// A child that receives its parent's namespace: its marks are the parent's.
private struct Caption: NookView {
    let hero: Namespace
    var body: some NookView { Text("Title").twShared("title", in: hero) }
}

private struct TwoHeroes: NookView {
    var first: Bool
    var body: some NookView {
        HStack {
            Hero(big: first)
            Hero(big: !first)
        }
    }
}

private func keys(_ view: some NookView) -> [String] {
    SlotNamespaces(resolving: view.viewNode, slot: "home", owner: SlotOwner(module: "m")).elements.map(\.key.key)
}

@Test func namespaceWrapperGivesEachViewInstanceItsOwnNamespace() throws {
    let before = keys(TwoHeroes(first: false))
    #expect(before.count == 4)
    // Two instances side by side: separate namespaces, so each cover pairs only with itself.
    #expect(Set(before).count == 4)
    let namespaces = before.map { $0.split(separator: "/").dropLast().joined(separator: "/") }
    #expect(namespaces[0] == namespaces[1], "the child's mark is in its parent's namespace")
    #expect(namespaces[2] == namespaces[3])
    #expect(namespaces[0] != namespaces[2])
    // Stable across updates: the same place gives the same names.
    #expect(keys(TwoHeroes(first: true)) == before)
    // Every name sent is a valid identifier the validator accepts.
    let root = TwoHeroes(first: false).viewNode
    #expect(throws: Never.self) { try ViewValidator().validate(root.rawNode, slot: "home") }
}

@Test func aNamedNamespaceIsTheSameEverywhere() {
    struct Named: NookView {
        let hero = Namespace("hero")
        var body: some NookView { Rectangle().twShared("cover", in: hero) }
    }
    struct Pair: NookView {
        var body: some NookView { HStack { Named(); Named() } }
    }
    let keys = keys(Pair())
    #expect(keys.count == 2 && keys[0] == keys[1])
    #expect(keys[0] == "m/home/ns:hero/cover")
}
