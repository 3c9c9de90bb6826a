import Testing
@testable import NookCore

private typealias F = LayoutFixture

@Suite struct LayoutFrameTests {
    @Test func fixedFramesIgnoreTheProposal() {
        let tree = F.box(40, 30)
        #expect(F.layout(tree).rect(at: "root") == F.rect(0, 0, 40, 30))
        #expect(F.layout(tree, width: 10, height: 10).rect(at: "root") == F.rect(0, 0, 40, 30))
        #expect(F.layout(tree, width: 500, height: 500).rect(at: "root") == F.rect(0, 0, 40, 30))
    }

    @Test func maxWidthMakesTextFlexibleUpToTheLimit() {
        // "Hello" at 10 pt is 27.5 pt wide.
        let plain = F.text("Hello")
        let capped = F.text("Hello") { $0.maxWidth = 200 }
        #expect(F.close(F.layout(plain, width: 300).rect(at: "root"), F.rect(0, 0, 27.5, 12)))
        #expect(F.close(F.layout(capped, width: 300).rect(at: "root"), F.rect(0, 0, 200, 12)))
        #expect(F.close(F.layout(capped, width: 150).rect(at: "root"), F.rect(0, 0, 150, 12)))
        #expect(F.close(F.layout(capped).rect(at: "root"), F.rect(0, 0, 27.5, 12)))
    }

    @Test func minWidthKeepsANodeAtLeastThatWide() {
        let tree = F.text("Hello") { $0.minWidth = 50 }
        #expect(F.layout(tree).rect(at: "root")?.width == 50)
        #expect(F.layout(tree, width: 10).rect(at: "root")?.width == 50)
        #expect(F.layout(tree, width: 80).rect(at: "root")?.width == 50)
    }

    @Test func minAndMaxClampTheProposal() {
        let tree = F.shape()
        func width(_ offer: Double?) -> Double? {
            var node = tree
            node.props.minWidth = 30
            node.props.maxWidth = 60
            return F.layout(node, width: offer, height: 10).rect(at: "root")?.width
        }
        #expect(width(10) == 30)
        #expect(width(45) == 45)
        #expect(width(100) == 60)
        #expect(width(nil) == 30)
    }

    @Test func paddingInsetsTheContentInsideTheFrame() {
        let padded = F.zstack([F.box(20, 20)]) { $0.padding = EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4) }
        let result = F.layout(padded)
        #expect(result.rect(at: "root") == F.rect(0, 0, 26, 24))
        #expect(result.rect(at: "root/0") == F.rect(2, 1, 20, 20))
        // With a fixed frame the padding comes out of the frame, not on top of it.
        var framed = padded
        framed.props.width = 40
        framed.props.height = 40
        let inFrame = F.layout(framed)
        #expect(inFrame.rect(at: "root") == F.rect(0, 0, 40, 40))
        #expect(inFrame.rect(at: "root/0") == F.rect(9, 9, 20, 20))
    }

    @Test func paddingShrinksWhatFlexibleContentIsOffered() {
        let tree = F.hstack([F.shape()]) { $0.padding = EdgeInsets(all: 10) }
        let result = F.layout(tree, width: 100, height: 50)
        #expect(result.rect(at: "root") == F.rect(0, 0, 100, 50))
        #expect(result.rect(at: "root/0") == F.rect(10, 10, 80, 30))
    }

    @Test func classUtilitiesActAsFramesPaddingAndGap() {
        let sized = F.node(.view) { $0.classes = "w-20 h-[37]" }
        #expect(F.layout(sized).rect(at: "root") == F.rect(0, 0, 80, 37))
        #expect(F.layout(F.node(.view) { $0.classes = "size-5" }).rect(at: "root") == F.rect(0, 0, 20, 20))
        let gapped = F.hstack([F.image(), F.image()]) { $0.classes = "gap-1 p-2 pt-0" }
        let result = F.layout(gapped)
        #expect(result.rect(at: "root") == F.rect(0, 0, 60, 28))
        #expect(result.rect(at: "root/0") == F.rect(8, 0, 20, 20))
        #expect(result.rect(at: "root/1") == F.rect(32, 0, 20, 20))
    }

    @Test func variantsAndUnknownClassesDoNotAffectLayout() {
        let plain = F.layout(F.box(30, 30))
        let decorated = F.layout(F.box(30, 30) { $0.classes = "hover:w-40 md:p-4 bg-red-500 group/hero shared-[cover] animate-smooth" })
        #expect(plain == decorated)
    }

    @Test func explicitPropsWinOverClassUtilities() {
        let sized = F.node(.view) { $0.classes = "w-20 size-10"; $0.width = 50 }
        #expect(F.layout(sized).rect(at: "root") == F.rect(0, 0, 50, 40))
        let spaced = F.hstack([F.image(), F.image()], spacing: 2) { $0.classes = "gap-4" }
        #expect(F.layout(spaced).rect(at: "root")?.width == 42)
        let padded = F.zstack([F.box(10, 10)]) { $0.classes = "p-4"; $0.padding = EdgeInsets(all: 1) }
        #expect(F.layout(padded).rect(at: "root") == F.rect(0, 0, 12, 12))
    }

    @Test func badLengthsAreSanitisedNeverNaN() {
        let negative = F.node(.view) { $0.width = -5; $0.height = .nan; $0.padding = EdgeInsets(all: -3) }
        let result = F.layout(negative, width: .nan, height: -.infinity)
        #expect(result.rect(at: "root") == F.rect(0, 0, 0, 20))
        let inverted = F.shape()
        var node = inverted
        node.props.minWidth = 50
        node.props.maxWidth = 10
        #expect(F.layout(node, width: 100, height: 1).rect(at: "root")?.width == 50)
        // An infinite proposal is read as "ideal" so nothing comes out infinite.
        #expect(F.layout(F.shape(), width: .infinity, height: .infinity).rect(at: "root") == .zero)
    }
}

@Suite struct LayoutClassUtilityTests {
    /// The quick reader in `LayoutAttributes.utility` must agree with `LayoutUtility.parse`.
    @Test func quickReadingAgreesWithTheClassParser() {
        let prefixes = ["w", "h", "size", "gap", "p", "px", "py", "pt", "pb", "ps", "pe", "m", "mx", "sizes", "wx", "", "shared", "group"]
        let values = ["0", "1", "20", "007", "123456", "1234567", "0.5", "2.25", "[37]", "[37pt]", "[37px]", "[-3]", "[x]", "", "x", "1e3", "-1", "20a", "[]"]
        var mismatches: [String] = []
        for prefix in prefixes {
            for value in values {
                let token = prefix + "-" + value
                if LayoutAttributes.utility(token[...]) != LayoutUtility.parse(token) { mismatches.append(token) }
            }
        }
        for token in ["w20", "group/hero", "shared-[cover]", "shared-[cover]/hero", "-", "w-", "--", "bg-red-500", "size--1"] {
            if LayoutAttributes.utility(token[...]) != LayoutUtility.parse(token) { mismatches.append(token) }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
