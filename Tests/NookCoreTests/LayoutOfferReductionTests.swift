import NookTestSupport
import Testing
@testable import NookCore

private typealias F = LayoutFixture

/// Layout reads an offer's axis the node cannot depend on as ideal, and a text offered its
/// one-line width or more as ideal, before consulting its size cache (`OfferDependence`).
/// The rects must be bit for bit those of measuring every offer as given.
@Suite struct LayoutOfferReductionTests {
    static func layout(_ root: ViewNode, _ proposal: ProposedSize, reducing: Bool) -> (result: LayoutResult, measurements: Int) {
        var pass = LayoutPass(root: root, rootPath: "slot", reducesOffers: reducing)
        let result = pass.run(proposal: proposal, origin: Point(x: 3, y: 5))
        return (result, pass.measurements)
    }

    static func proposals(_ rng: inout SeededGenerator) -> [ProposedSize] {
        [.unspecified, ProposedSize(width: 0, height: 0), ProposedSize(width: .infinity, height: 40),
         ProposedSize(width: Double.random(in: 0...400, using: &rng), height: nil),
         ProposedSize(width: nil, height: Double.random(in: 0...300, using: &rng)),
         ProposedSize(width: Double.random(in: 0...400, using: &rng), height: Double.random(in: 0...300, using: &rng))]
    }

    @Test(arguments: Array(UInt64(1)...400))
    func reducedOffersGiveTheRectsOfEveryOfferMeasured(seed: UInt64) {
        var trees = LayoutRandomTrees(seed: seed)
        trees.frameChance = seed.isMultiple(of: 2) ? 0.2 : 0.5
        let tree = trees.tree(depth: 5, maxChildren: 4)
        for proposal in Self.proposals(&trees.rng) {
            let reduced = Self.layout(tree, proposal, reducing: true)
            let reference = Self.layout(tree, proposal, reducing: false)
            #expect(reduced.result == reference.result, "seed \(seed), \(proposal)")
            #expect(reduced.measurements <= reference.measurements, "seed \(seed), \(proposal)")
        }
    }

    /// Rows like a media list's (fixed icon, two texts, a bar with a maximum width), in a
    /// stack too tall for its height: every row and child is probed at several offers.
    @Test func rigidChildrenAreMeasuredOnceHoweverOftenTheyAreProbed() {
        let rows = (0..<30).map { number in
            F.hstack([
                F.node(.image) { $0.classes = "size-8" },
                F.vstack([F.text("Track \(number)", size: 13), F.text("Artist", size: 11)], alignment: .leading),
                F.node(.progress) { $0.value = 0.4; $0.maxWidth = 60 },
            ])
        }
        let tree = F.vstack(rows)
        for proposal in [ProposedSize(width: 448, height: 160), ProposedSize(width: 448, height: nil), ProposedSize(width: 60, height: 100)] {
            let reduced = Self.layout(tree, proposal, reducing: true)
            let reference = Self.layout(tree, proposal, reducing: false)
            #expect(reduced.result == reference.result)
            #expect(reduced.measurements < reference.measurements, "\(reduced.measurements) vs \(reference.measurements)")
        }
        // Each fixed-size icon is measured exactly once, whatever its row asked.
        var pass = LayoutPass(root: tree, rootPath: "slot")
        _ = pass.run(proposal: ProposedSize(width: 448, height: 160), origin: .zero)
        let images = pass.nodes.indices.filter { pass.nodes[$0].kind == .image }
        #expect(images.count == 30)
        #expect(images.allSatisfy { pass.cacheEntries(ofNode: $0) == 1 })
    }

    /// An unbounded offer reads as ideal where it cannot change the size (`unbounded*IsIdeal`):
    /// a stack's probe at infinity shares its ideal measurement, so a row of text, an icon and
    /// a bar probed at heights 0, infinity and ideal is measured twice, not three times. A
    /// shape (which takes an unbounded offer) or a `max_height` frame keeps the third.
    @Test func anUnboundedOfferSharesTheIdealMeasurementWhereItCannotMatter() {
        func row(_ extra: ViewNode?) -> ViewNode {
            F.hstack([
                F.node(.image) { $0.classes = "size-8" },
                F.vstack([F.text("Track", size: 13), F.text("Artist", size: 11)], alignment: .leading),
                F.node(.progress) { $0.value = 0.4; $0.maxWidth = 60 },
            ] + (extra.map { [$0] } ?? []))
        }
        let plain = F.vstack((0..<20).map { _ in row(nil) })
        let shaped = F.vstack((0..<20).map { _ in row(F.node(.shape) { $0.shape = .roundedRect; $0.height = 10 }) })
        let growing = F.vstack((0..<20).map { _ in row(F.node(.view) { $0.maxHeight = 30 }) })
        let bareShape = F.vstack((0..<20).map { _ in row(F.node(.shape) { $0.shape = .roundedRect }) })
        for (tree, entries) in [(plain, 2), (shaped, 2), (growing, 3), (bareShape, 3)] {
            let proposal = ProposedSize(width: 448, height: 160)
            #expect(Self.layout(tree, proposal, reducing: true).result == Self.layout(tree, proposal, reducing: false).result)
            var pass = LayoutPass(root: tree, rootPath: "slot")
            _ = pass.measureRoot(ProposedSize(width: 448, height: nil))
            _ = pass.run(proposal: proposal, origin: .zero)
            let rows = (0..<pass.nodes.count).filter { pass.nodes[$0].parent == 0 }
            #expect(rows.count == 20)
            #expect(rows.allSatisfy { pass.cacheEntries(ofNode: $0) == entries }, "\(rows.map { pass.cacheEntries(ofNode: $0) })")
        }
    }

    /// A width offer at least a node's `widthThreshold` reads as ideal: a vstack of texts
    /// offered at least their one-line width answers as if offered its ideal width, so a row's
    /// title stack probed at width 0, infinity and its share is measured at two widths, not
    /// three. A bar in the stack (it takes the width it is offered) keeps the third.
    @Test func aStackOfferedItsTextsOneLineWidthReadsAsIdeal() {
        func rows(_ extra: [ViewNode]) -> ViewNode {
            F.vstack((0..<20).map { number in
                F.hstack([
                    F.node(.image) { $0.classes = "size-8" },
                    F.vstack([F.text("Track \(number)", size: 13), F.text("Artist", size: 11)] + extra, alignment: .leading),
                ])
            })
        }
        for (tree, entries) in [(rows([]), 4), (rows([F.node(.progress) { $0.value = 0.5 }]), 6)] {
            let proposal = ProposedSize(width: 448, height: 160)
            #expect(Self.layout(tree, proposal, reducing: true).result == Self.layout(tree, proposal, reducing: false).result)
            var pass = LayoutPass(root: tree, rootPath: "slot")
            _ = pass.measureRoot(ProposedSize(width: 448, height: nil))
            _ = pass.run(proposal: proposal, origin: .zero)
            let titles = (0..<pass.nodes.count).filter { pass.nodes[$0].kind == .vstack && pass.nodes[$0].parent > 0 }
            #expect(titles.count == 20)
            #expect(titles.allSatisfy { pass.cacheEntries(ofNode: $0) == entries }, "\(titles.map { pass.cacheEntries(ofNode: $0) })")
        }
    }

    /// Text: an offer it fits on one line reads as ideal, wrapping offers stay as given, and
    /// a height cuts lines only when it is finite and smaller than the text.
    @Test func textOffersReduceOnlyWhereTheSizeCannotChange() {
        var store = TextStore()
        let oneLine = store.add(text: "Artist", fontSize: 10, weight: nil, monospacedDigits: false)
        let twoParagraphs = store.add(text: "one\ntwo", fontSize: 10, weight: nil, monospacedDigits: false)
        for run in [oneLine, twoParagraphs] {
            for width in [-1.0, 0, 5, 12, 33, 200, .infinity] {
                for height in [-1.0, 0, 11, 12, 24, 500, .infinity] {
                    let reduced = store.reduced(run: run, width: width, height: height)
                    #expect(store.size(of: run, width: reduced.width, height: reduced.height) == store.size(of: run, width: width, height: height),
                            "run \(run) at \(width) x \(height)")
                }
            }
        }
        #expect(store.reduced(run: oneLine, width: 200, height: 0) == (-1, -1))
        #expect(store.reduced(run: twoParagraphs, width: 200, height: 12) == (-1, 12))
        #expect(store.reduced(run: oneLine, width: 5, height: .infinity) == (5, -1))
    }
}
