import Testing
@testable import NookCore

private typealias F = LayoutFixture

@Suite struct LayoutStackTests {
    @Test func hstackGivesFixedChildrenTheirSizeAndSpacersTheRest() {
        let tree = F.hstack([F.box(40, 20), F.spacer(), F.image()])
        let result = F.layout(tree, width: 300, height: 50)
        #expect(result.rect(at: "root") == F.rect(0, 0, 300, 20))
        #expect(result.rect(at: "root/0") == F.rect(0, 0, 40, 20))
        #expect(result.rect(at: "root/1") == F.rect(40, 10, 240, 0))
        #expect(result.rect(at: "root/2") == F.rect(280, 0, 20, 20))
    }

    @Test func stacksPutDefaultSpacingBetweenChildrenButNotNextToSpacers() {
        #expect(F.layout(F.hstack([F.image(), F.image()])).rect(at: "root")?.width == 48)
        // The spacer's own minimum (8) replaces the gaps on either side of it.
        #expect(F.layout(F.hstack([F.image(), F.spacer(), F.image()])).rect(at: "root")?.width == 48)
        #expect(F.layout(F.vstack([F.image(), F.image(), F.image()], spacing: 2)).rect(at: "root")?.height == 64)
        // Explicit spacing applies next to spacers too.
        #expect(F.layout(F.hstack([F.image(), F.spacer(min: 0), F.image()], spacing: 5)).rect(at: "root")?.width == 50)
    }

    @Test func spacerKeepsItsMinimumLength() {
        let tree = F.hstack([F.image(), F.spacer(min: 30), F.image()])
        #expect(F.layout(tree).rect(at: "root/1") == F.rect(20, 10, 30, 0))
        // Squeezed below its minimum, the stack overflows rather than shrinking the spacer.
        #expect(F.layout(tree, width: 50).rect(at: "root")?.width == 70)
    }

    @Test func hstackSharesRoomLeastFlexibleFirst() {
        // "aaaa bbbb" is 47 pt wide at 10 pt, "cc" 11 pt; both could shrink to one glyph.
        let tree = F.hstack([F.text("aaaa bbbb"), F.text("cc")], spacing: 0)
        let result = F.layout(tree, width: 50)
        // The less flexible "cc" is served first and keeps its line; the long text wraps.
        #expect(F.close(result.rect(at: "root/1"), F.rect(22, 6, 11, 12)))
        #expect(F.close(result.rect(at: "root/0"), F.rect(0, 0, 22, 24)))
        #expect(F.close(result.rect(at: "root"), F.rect(0, 0, 33, 24)))
    }

    @Test func flexibleChildrenShareWhatRigidChildrenLeave() {
        let result = F.layout(F.hstack([F.shape(), F.image(), F.shape()], spacing: 0), width: 100, height: 10)
        // The image cannot shrink to the 10 pt height, so the stack is 20 tall.
        #expect(result.rect(at: "root/0") == F.rect(0, 5, 40, 10))
        #expect(result.rect(at: "root/1") == F.rect(40, 0, 20, 20))
        #expect(result.rect(at: "root/2") == F.rect(60, 5, 40, 10))
    }

    @Test func vstackAlignsChildrenAcrossItsAxis() {
        let children = [F.box(40, 10), F.box(20, 10)]
        #expect(F.layout(F.vstack(children, alignment: .leading)).rect(at: "root/1") == F.rect(0, 18, 20, 10))
        #expect(F.layout(F.vstack(children)).rect(at: "root/1") == F.rect(10, 18, 20, 10))
        #expect(F.layout(F.vstack(children, alignment: .trailing)).rect(at: "root/1") == F.rect(20, 18, 20, 10))
        #expect(F.layout(F.vstack(children)).rect(at: "root") == F.rect(0, 0, 40, 28))
    }

    @Test func hstackAlignsChildrenAcrossItsAxis() {
        let children = [F.box(10, 40), F.box(10, 20)]
        #expect(F.layout(F.hstack(children, alignment: .top)).rect(at: "root/1") == F.rect(18, 0, 10, 20))
        #expect(F.layout(F.hstack(children)).rect(at: "root/1") == F.rect(18, 10, 10, 20))
        #expect(F.layout(F.hstack(children, alignment: .bottom)).rect(at: "root/1") == F.rect(18, 20, 10, 20))
    }

    @Test func zstackAlignsEveryChildInItsBox() {
        let tree = F.zstack([F.box(40, 40), F.box(10, 10)], alignment: .trailing)
        let result = F.layout(tree)
        #expect(result.rect(at: "root") == F.rect(0, 0, 40, 40))
        #expect(result.rect(at: "root/1") == F.rect(30, 15, 10, 10))
        #expect(F.layout(F.zstack([F.box(40, 40), F.box(10, 10)], alignment: .top)).rect(at: "root/1") == F.rect(15, 0, 10, 10))
    }

    @Test func stackWithAFixedFrameAlignsItsChildrenInThatFrame() {
        let leading = F.vstack([F.box(20, 20)], alignment: .leading) { $0.width = 100; $0.height = 60 }
        #expect(F.layout(leading).rect(at: "root/0") == F.rect(0, 20, 20, 20))
        let centred = F.vstack([F.box(20, 20)]) { $0.width = 100 }
        #expect(F.layout(centred).rect(at: "root/0") == F.rect(40, 0, 20, 20))
    }

    @Test func pathsAppendTheChildIndexToTheSlotName() {
        let tree = F.vstack([F.text("a"), F.hstack([F.image(), F.image(), F.text("b")])])
        let result = F.layout(tree, path: "expanded")
        #expect(result.nodes.map(\.path) == ["expanded", "expanded/0", "expanded/1", "expanded/1/0", "expanded/1/1", "expanded/1/2"])
        #expect(result.nodes.map(\.kind) == [.vstack, .text, .hstack, .image, .image, .text])
        #expect(result.nodes.map(\.parentIndex) == [nil, 0, 0, 2, 2, 2])
        #expect(result["expanded/1/2"]?.kind == .text)
    }

    @Test func emptyStacksHaveNoSize() {
        #expect(F.layout(F.hstack([])).rect(at: "root") == .zero)
        #expect(F.layout(F.zstack([]), width: 50, height: 50).rect(at: "root") == .zero)
    }

    @Test func layoutInRectCentresTheRoot() {
        let result = LayoutEngine.layout(F.box(20, 10), rootPath: "minimal", in: F.rect(100, 50, 40, 40))
        #expect(result.rect(at: "minimal") == F.rect(110, 65, 20, 10))
    }
}

@Suite struct LayoutResultLookupTests {
    static let tree = F.vstack([F.text("a"), F.hstack([F.image(), F.vstack([F.text("b"), F.text("c")]), F.text("d")]), F.image()])

    @Test func pathsLeadToTheirNodes() {
        let result = F.layout(Self.tree, path: "music/song:minimal")
        for (offset, node) in result.nodes.enumerated() {
            #expect(result.index(of: node.path) == offset, "\(node.path)")
        }
        #expect(result["music/song:minimal/1/1/1"]?.kind == .text)
        #expect(result["music/song:minimal/2"]?.kind == .image)
    }

    @Test func malformedOrMissingPathsFindNothing() {
        let result = F.layout(Self.tree, path: "expanded")
        for path in ["expanded/3", "expanded/0/0", "expanded/", "expanded//1", "expanded/x", "expandedx", "expanded/01",
                     "home/0", "", "expanded/1/1/2", "expanded/99999999999"] {
            #expect(result.index(of: path) == nil, "\(path)")
        }
        #expect(result.index(of: "expanded/10") == nil)
        #expect(result.index(of: "expanded/0") == 1)
    }

    @Test func aResultBuiltFromNodesMatchesTheEnginesOwn() {
        let result = F.layout(Self.tree, path: "peek")
        #expect(LayoutResult(nodes: result.nodes) == result)
        let moved = result.offsetBy(dx: 10, dy: 5)
        #expect(moved.rect(at: "peek/1/1") == result.rect(at: "peek/1/1")?.offsetBy(dx: 10, dy: 5))
    }
}
