/// Latency samples in microseconds, with the percentiles the benchmarks report.
struct Samples {
    private(set) var values: [Double] = []

    mutating func append(_ microseconds: Double) { values.append(microseconds) }
    mutating func append(contentsOf other: Samples) { values.append(contentsOf: other.values) }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p / 100))]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var count: Int { values.count }
}

extension Duration {
    var microseconds: Double {
        Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
    }
}
