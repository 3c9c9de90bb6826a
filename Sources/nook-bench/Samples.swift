import Glibc

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

    /// One row of a latency table: name, p50, p99, and both as ratios to `baseline`'s.
    func printRow(_ name: String, against baseline: Samples) {
        print("  " + name.padding(36) + fmt(p50).leftPadding(10) + fmt(p99).leftPadding(11)
              + (fmt(p50 / baseline.p50) + "x").leftPadding(12) + (fmt(p99 / baseline.p99) + "x").leftPadding(12))
    }
}

extension Duration {
    var microseconds: Double {
        Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
    }
}

/// Ends a section of the report: a blank line, flushed, so a pipe sees progress as it happens.
func section() {
    print("")
    fflush(nil)
}
