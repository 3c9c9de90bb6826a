import NookTestSupport
import Testing
@testable import NookCore

/// `TextStore` reads measured ASCII text as bytes (each byte one scalar, taking the measurer's
/// advance at its index); it must store texts that size exactly as the scalar walk's do.
@Suite struct MeasuredASCIIShortcutTests {
    @Test func measuredASCIITextSizesAsItsScalarWalkDoes() {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        let pieces = ["track", "12", "00:42", " ", "  ", "\t", "\n", "\r\n", "\r", "a", "longer-word-here", "x9", "W", ""]
        // A measurer's odd numbers too: NaN, infinities and negatives take no room.
        let odd: [Double] = [.nan, .infinity, -.infinity, -3, 0, 2_000_000]
        var failures: [String] = []
        for round in 0..<1_500 {
            let text = (0..<Int.random(in: 0...14, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let scalarCount = text.unicodeScalars.count
            // Fewer advances than scalars, as many, or more.
            let advanceCount = max(0, scalarCount + Int.random(in: -3...3, using: &rng))
            let advances = (0..<advanceCount).map { _ in
                Int.random(in: 0..<10, using: &rng) == 0 ? odd.randomElement(using: &rng)! : Double(Int.random(in: 0...40, using: &rng)) / 4
            }
            let lineHeight = [0, 12, 17.5, .nan].randomElement(using: &rng)!
            let measured = MeasuredText(advances: advances, lineHeight: lineHeight)
            let fontSize = Double(Int.random(in: 16...48, using: &rng)) / 2
            let digits = Bool.random(using: &rng)
            var store = TextStore()
            // Texts share the store's arrays: the second of each pair starts past the first.
            let bytes = store.add(text: text, fontSize: fontSize, weight: nil, monospacedDigits: digits, measured: measured)
            let scalars = store.add(text: text, fontSize: fontSize, weight: nil, monospacedDigits: digits, measured: measured,
                                    readsASCIIBytes: false)
            if store.unwrappedWidth(run: bytes) != store.unwrappedWidth(run: scalars) {
                failures.append("round \(round) \(text.debugDescription): ideal width")
            }
            for width in [-1.0, 0, 1, 3, 7.5, 10, 25, 60, 140, .infinity] {
                for height in [-1.0, 0, 15, 40, .infinity] {
                    let fast = store.size(of: bytes, width: width, height: height)
                    let general = store.size(of: scalars, width: width, height: height)
                    if fast != general { failures.append("round \(round) \(text.debugDescription) at \(width) x \(height): \(fast) != \(general)") }
                }
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(SeededGenerator.replay(seed)): \(failures.prefix(5))")
    }
}
