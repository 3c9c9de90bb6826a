import Testing
@testable import NookCore

private typealias F = LayoutFixture

/// Expanded content is laid out at its ideal height and, when too tall, at the panel's
/// limit. Both proposals go through one layout pass (one flatten, one size cache).
@Suite struct LayoutFittingTests {
    static func tall(rows: Int) -> ViewNode {
        F.vstack((0..<rows).map { F.hstack([F.image(), F.text("row \($0) with a title that wraps when narrow"), F.spacer(), F.box(40, 4)]) })
    }

    /// What fitting did before it shared a pass: two independent layouts.
    static func twoPasses(_ root: ViewNode, width: Double, heightLimit: Double) -> LayoutResult {
        let ideal = LayoutEngine.layout(root, rootPath: "expanded", proposal: ProposedSize(width: width, height: nil))
        guard (ideal.root?.rect.height ?? 0) > heightLimit + Geometry.epsilon else { return ideal }
        return LayoutEngine.layout(root, rootPath: "expanded", proposal: ProposedSize(width: width, height: heightLimit))
    }

    @Test func fittingGivesWhatTwoSeparateLayoutsGave() {
        for rows in [1, 3, 12, 40] {
            for limit in [0.0, 60, 200, 10_000] {
                let tree = Self.tall(rows: rows)
                let fitted = LayoutEngine.layoutFitting(tree, rootPath: "expanded", width: 400, heightLimit: limit).result
                #expect(fitted == Self.twoPasses(tree, width: 400, heightLimit: limit), "rows \(rows), limit \(limit)")
            }
        }
    }

    /// Fitting never measures more than the layouts it stands for: content that fits costs
    /// one ideal layout's measurements; content too tall costs at most the ideal measure plus
    /// the limited layout (what the two offers share is computed once). What it saves besides
    /// is the ideal layout's flatten, placement and result, which measurements do not count.
    @Test func fittingMeasuresNoMoreThanTheLayoutsItReplaces() {
        for (rows, limit, tooTall) in [(3, 10_000.0, false), (40, 200.0, true)] {
            let tree = Self.tall(rows: rows)
            let ideal = LayoutEngine.layoutCountingMeasurements(tree, rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil))
            let limited = LayoutEngine.layoutCountingMeasurements(tree, rootPath: "expanded", proposal: ProposedSize(width: 400, height: limit))
            let fitted = LayoutEngine.layoutFitting(tree, rootPath: "expanded", width: 400, heightLimit: limit)
            #expect(((ideal.result.root?.rect.height ?? 0) > limit) == tooTall)
            if tooTall {
                #expect(fitted.result == limited.result)
                #expect(fitted.measurements <= ideal.measurements + limited.measurements)
            } else {
                #expect(fitted.result == ideal.result)
                #expect(fitted.measurements == ideal.measurements)
            }
        }
    }
}
