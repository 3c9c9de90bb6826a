import Testing
@testable import NookCore

private typealias F = LayoutFixture

@Suite struct LayoutLeafTests {
    @Test func textIsAsWideAsItsGlyphsAndOneLineTall() {
        // 10 pt regular: 5.5 pt per letter, 3 pt per space, 12 pt per line.
        #expect(F.close(F.layout(F.text("aaaa bbbb")).rect(at: "root"), F.rect(0, 0, 47, 12)))
        #expect(F.close(F.layout(F.text("ab", size: 20)).rect(at: "root"), F.rect(0, 0, 22, 24)))
        #expect(F.close(F.layout(F.text("")).rect(at: "root"), F.rect(0, 0, 0, 12)))
        let bold = F.text("ab") { $0.fontWeight = "bold" }
        #expect(F.close(F.layout(bold).rect(at: "root"), F.rect(0, 0, 12, 12)))
        let unsized = F.node(.text) { $0.text = "a" }
        #expect(F.close(F.layout(unsized).rect(at: "root"), F.rect(0, 0, 13 * 0.55, 13 * 1.2)))
    }

    @Test func textWrapsOntoMoreLinesWhenProposedANarrowerWidth() {
        let tree = F.text("aaaa bbbb")
        #expect(F.close(F.layout(tree, width: 30).rect(at: "root"), F.rect(0, 0, 22, 24)))
        // A word longer than the line breaks between characters.
        #expect(F.close(F.layout(F.text("aaaaaa"), width: 12).rect(at: "root"), F.rect(0, 0, 11, 36)))
        // Explicit newlines always break.
        #expect(F.close(F.layout(F.text("ab\ncd\n")).rect(at: "root"), F.rect(0, 0, 11, 36)))
    }

    @Test func textKeepsTheLinesThatFitAProposedHeight() {
        let tree = F.text("aa bb cc dd")
        #expect(F.close(F.layout(tree, width: 12, height: 25).rect(at: "root"), F.rect(0, 0, 11, 24)))
        #expect(F.close(F.layout(tree, width: 12, height: 1).rect(at: "root"), F.rect(0, 0, 11, 12)))
    }

    @Test func monospacedDigitsUseAFixedAdvance() {
        let proportional = F.text("111")
        let monospaced = F.text("111") { $0.monospacedDigits = true }
        #expect(F.close(F.layout(proportional).rect(at: "root"), F.rect(0, 0, 16.5, 12)))
        #expect(F.close(F.layout(monospaced).rect(at: "root"), F.rect(0, 0, 18.6, 12)))
    }

    @Test func timerTextIsSizedAsItsWidestFormat() {
        let timer = F.node(.text) { $0.timerEnd = 1_800_000_000_000_000; $0.fontSize = 10 }
        // "00:00": four monospaced digits and a colon.
        #expect(F.close(F.layout(timer).rect(at: "root"), F.rect(0, 0, 4 * 6.2 + 5.5, 12)))
        var labelled = timer
        labelled.props.text = "Tea"
        #expect(F.close(F.layout(labelled).rect(at: "root"), F.rect(0, 0, 16.5, 12)))
    }

    @Test func wideCharactersTakeAFullEm() {
        #expect(F.close(F.layout(F.text("日本")).rect(at: "root"), F.rect(0, 0, 20, 12)))
        #expect(F.close(F.layout(F.text("🎵")).rect(at: "root"), F.rect(0, 0, 10, 12)))
    }

    @Test func imageIsASquareOfItsFontSizeOrTwentyPoints() {
        #expect(F.layout(F.image()).rect(at: "root") == F.rect(0, 0, 20, 20))
        #expect(F.layout(F.image(), width: 100, height: 100).rect(at: "root") == F.rect(0, 0, 20, 20))
        #expect(F.layout(F.node(.image) { $0.fontSize = 16 }).rect(at: "root") == F.rect(0, 0, 16, 16))
        #expect(F.layout(F.node(.image) { $0.width = 30 }).rect(at: "root") == F.rect(0, 0, 30, 30))
        #expect(F.layout(F.node(.image) { $0.width = 30; $0.height = 10 }).rect(at: "root") == F.rect(0, 0, 30, 10))
    }

    @Test func shapeTakesTheProposalAndIsEmptyAtIdeal() {
        #expect(F.layout(F.shape(), width: 70, height: 30).rect(at: "root") == F.rect(0, 0, 70, 30))
        #expect(F.layout(F.shape()).rect(at: "root") == .zero)
        #expect(F.layout(F.shape().changingProps { $0.width = 12 }, height: 30).rect(at: "root") == F.rect(0, 0, 12, 30))
    }

    @Test func linearProgressTakesTheWidthAndCircularIsFixed() {
        let linear = F.node(.progress) { $0.value = 0.5 }
        #expect(F.layout(linear, width: 200, height: 50).rect(at: "root") == F.rect(0, 0, 200, 4))
        let circular = F.node(.progress) { $0.value = 0.5; $0.progressStyle = .circular }
        #expect(F.layout(circular, width: 200, height: 50).rect(at: "root") == F.rect(0, 0, 20, 20))
    }

    @Test func customViewIsTwentySquareWhenEmptyAndAnOverlayOtherwise() {
        #expect(F.layout(F.node(.view) { $0.name = "CoverArt" }).rect(at: "root") == F.rect(0, 0, 20, 20))
        let holder = F.node(.view, [F.box(30, 10), F.box(10, 40)]) { $0.name = "Card" }
        let result = F.layout(holder)
        #expect(result.rect(at: "root") == F.rect(0, 0, 30, 40))
        #expect(result.rect(at: "root/0") == F.rect(0, 15, 30, 10))
        #expect(result.rect(at: "root/1") == F.rect(10, 0, 10, 40))
    }

    @Test func spacerOutsideAStackStretchesBothWays() {
        #expect(F.layout(F.spacer(), width: 50, height: 30).rect(at: "root") == F.rect(0, 0, 50, 30))
        #expect(F.layout(F.spacer()).rect(at: "root") == F.rect(0, 0, 8, 8))
        // In a vstack it stretches along the axis only and is 0 wide, so the stack is too.
        #expect(F.layout(F.vstack([F.spacer()]), width: 50, height: 30).rect(at: "root/0") == F.rect(0, 0, 0, 30))
    }
}

extension ViewNode {
    /// A copy with some props changed (test convenience).
    func changingProps(_ change: (inout NodeProps) -> Void) -> ViewNode {
        var copy = self
        change(&copy.props)
        return copy
    }
}

@Suite struct LayoutTextScalarTests {
    @Test func combiningMarksAndJoinedEmojiTakeNoExtraRoom() {
        // "e" + combining acute accent is one letter wide.
        #expect(F.close(F.layout(F.text("e\u{301}")).rect(at: "root"), F.rect(0, 0, 5.5, 12)))
        // A ZWJ family and a skin-toned thumb are one em each.
        #expect(F.close(F.layout(F.text("👨‍👩‍👧")).rect(at: "root"), F.rect(0, 0, 10, 12)))
        #expect(F.close(F.layout(F.text("👍🏽")).rect(at: "root"), F.rect(0, 0, 10, 12)))
    }

    @Test func leadingAndTrailingSpacesAndBlankLines() {
        #expect(F.close(F.layout(F.text("\n")).rect(at: "root"), F.rect(0, 0, 0, 24)))
        #expect(F.close(F.layout(F.text("a\n\nb")).rect(at: "root"), F.rect(0, 0, 5.5, 36)))
        // Trailing spaces take no room at the end of the line.
        #expect(F.close(F.layout(F.text("ab  ")).rect(at: "root"), F.rect(0, 0, 11, 12)))
    }
}
