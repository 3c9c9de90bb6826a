import Foundation

// `make bench`: every benchmark prints its detailed table and returns its figures; the
// summary table and `.build/bench.json` come last. Ratios are against baselines measured in
// the same run.
print("Nook benchmarks (release build)\n")
var figures: [Figure] = []
figures += try await runBusBenchmark()
section()
figures += try await runBrokerBenchmark()
section()
figures += runLayoutBenchmark()
section()
figures += runPlannerBenchmark()
section()
// SPEC's order: planning, publish-to-renderer, RSS and readiness; then supporting figures.
let order = ["planner", "broker", "rss", "ready", "layout", "bus", "sustained"]
figures.sort { a, b in
    let rank = { (f: Figure) in order.firstIndex { f.name.hasPrefix($0) } ?? order.count }
    return rank(a) < rank(b)
}
Report.printTable(figures)
let json = Report.defaultJSONPath()
try Report.writeJSON(figures, to: json)
print("\nwritten to \(json.path)")
