import NookTestSupport
import Testing
@testable import NookCore

/// Placing reads each child's cache entry as the stack or overlay measurement recorded it
/// (`CacheEntry.children`) instead of looking the child up again: the recorded entry must
/// be the one the lookup would find, for reduced and unreduced offers alike.
@Suite struct LayoutArrangementTests {
    @Test(arguments: Array(UInt64(1)...150))
    func recordedChildEntriesAreTheOnesALookupFinds(seed: UInt64) {
        var trees = LayoutRandomTrees(seed: seed)
        trees.frameChance = seed.isMultiple(of: 2) ? 0.2 : 0.5
        let tree = trees.tree(depth: 5, maxChildren: 4)
        for proposal in LayoutOfferReductionTests.proposals(&trees.rng) {
            for reducing in [true, false] {
                var pass = LayoutPass(root: tree, rootPath: "slot", reducesOffers: reducing)
                _ = pass.run(proposal: proposal, origin: .zero)
                #expect(pass.arrangedEntriesMatchLookups(), "seed \(seed), \(proposal), reducing \(reducing)")
            }
        }
    }
}
