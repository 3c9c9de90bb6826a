import NookCore
@testable import NookText
import Testing

/// The measurer keeps its own copy of `BoundedCache` (specialized for its key and value);
/// it must keep and drop exactly what `BoundedCache` does.
@Suite struct MeasurementCacheTests {
    @Test func keepsAndDropsWhatBoundedCacheDoes() {
        var random = SystemRandomNumberGenerator()
        for capacity in [2, 3, 8, 33] {
            var cache = MeasurementCache(capacity: capacity)
            var reference = BoundedCache<MeasurementKey, MeasuredText>(capacity: capacity)
            for _ in 0..<2000 {
                let key = MeasurementKey(text: "track \(Int.random(in: 0..<40, using: &random))", weight: 400, monospacedDigits: Bool.random(using: &random))
                let made = MeasuredText(advances: [Double(Int.random(in: 0..<1000, using: &random))], lineHeight: 1)
                #expect(cache.value(for: key, orMake: { made }) == reference.value(for: key, orMake: { made }))
                #expect(cache.count == reference.count)
            }
        }
    }
}
