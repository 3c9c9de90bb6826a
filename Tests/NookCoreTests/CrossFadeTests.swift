import Testing
@testable import NookCore

/// Rule 6's cross-fade never thins: at every progress (springs overshoot, so beyond 0...1
/// too) the two copies drawn over each other cover at least as much as the more opaque one.
@Suite struct CrossFadeTests {
    @Test func rule6_combinedCoverageNeverDropsBelowTheMoreOpaqueCopy() {
        var failures: [String] = []
        // Copies with their own opacity (a dimmed view cross-fading with a solid one), over a
        // fine grid of progress values from before the start to beyond the end.
        for own in [(1.0, 1.0), (0.6, 1.0), (1.0, 0.4), (0.5, 0.5)] {
            for step in -200...1_200 {
                let p = Double(step) / 1_000
                let outgoing = own.0 * CrossFade.outgoing(p)
                let incoming = own.1 * CrossFade.incoming(p)
                let covered = CrossFade.coverage(outgoing, incoming)
                // The larger of the two copies' own opacities, whichever is the one fully in at p.
                let floor = p <= CrossFade.split ? own.0 : own.1
                if covered < floor - 1e-12 { failures.append("own \(own) p \(p): \(covered) < \(floor)") }
                if covered < max(outgoing, incoming) - 1e-12 { failures.append("own \(own) p \(p): below a copy") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // Opaque copies: fully covered from start to end; linear 1 − p / p would cover 75% at the midpoint.
        #expect((0...100).allSatisfy { CrossFade.coverage(CrossFade.outgoing(Double($0) / 100), CrossFade.incoming(Double($0) / 100)) == 1 })
        #expect(CrossFade.coverage(0.5, 0.5) == 0.75)
    }

    @Test func rule6_theCopiesStartAndEndAlone() {
        #expect(CrossFade.incoming(0) == 0 && CrossFade.outgoing(0) == 1)
        #expect(CrossFade.incoming(1) == 1 && CrossFade.outgoing(1) == 0)
        #expect(CrossFade.incoming(.nan) == 0 && CrossFade.outgoing(1.3) == 0 && CrossFade.incoming(-0.2) == 0)
        // Each moves one way only.
        let grid = (0...100).map { Double($0) / 100 }
        #expect(zip(grid, grid.dropFirst()).allSatisfy { CrossFade.incoming($0) <= CrossFade.incoming($1) && CrossFade.outgoing($0) >= CrossFade.outgoing($1) })
    }
}
