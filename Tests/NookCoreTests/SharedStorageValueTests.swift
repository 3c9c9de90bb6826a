import Testing
@testable import NookCore

/// `PlannerScene` and `PreparedSlot` keep their parts in a shared box (copied only when a
/// shared one is written): they must still behave as values. A write to a copy, through any
/// property and however deep, leaves the original as it was.
@Suite struct SharedStorageValueTests {
    typealias F = PlannerFixture

    static func pill() -> PlannerScene { F.scene(.pill, F.songContent()) }

    @Test func writingACopiedSceneLeavesTheOriginalUnchanged() {
        let original = Self.pill()
        let untouched = Self.pill()
        #expect(original == untouched)

        var copy = original
        copy.suppressed.insert("compact_leading/0")
        copy.presentation = .peek
        copy.layout.slots[0].rect.size.width += 10
        copy.content.compactTrailing = nil
        #expect(copy != original)
        #expect(original == untouched)
        #expect(original.suppressed.isEmpty)
        #expect(original.presentation == .pill)
        #expect(original.layout.slots[0].rect == untouched.layout.slots[0].rect)
        #expect(original.content.compactTrailing != nil)
    }

    @Test func writingASlotOfACopiedSceneLeavesTheOriginalsSlotUnchanged() {
        let original = Self.pill()
        let untouched = Self.pill()
        var copy = original
        copy.slots[0].laidOut.rect.origin.x += 5
        copy.slots[0].view.props.text = "changed"
        copy.slots[0].namespaces.elements.removeAll()
        copy.slots[0].owner = SlotOwner(module: "other")
        #expect(copy.slots[0] != original.slots[0])
        #expect(original.slots[0] == untouched.slots[0])
        #expect(original.slots[0].laidOut.rect == untouched.slots[0].laidOut.rect)
        #expect(original.slots[0].view.props.text == untouched.slots[0].view.props.text)
        #expect(!original.slots[0].namespaces.elements.isEmpty)
        #expect(original.slots[0].owner == SlotOwner(module: "music", activity: "song"))
    }

    @Test func equalScenesPreparedApartHashAlike() {
        let a = Self.pill()
        let b = Self.pill()
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.slots[0].hashValue == b.slots[0].hashValue)
        #expect(Set([a, b]).count == 1)
    }
}
