import Foundation

// `make bench`: every benchmark prints its detailed table and returns its figures; the
// summary table and `.build/bench.json` come last. Ratios are against baselines measured in
// the same run.
//
// `--only planner|layout|renderers|broker|bus|wire` runs one benchmark (and its summary rows) only.
// `--profile update|typical [runs]` runs only that planner case `runs` times, untimed, for
// `valgrind --tool=callgrind` (instruction counts are repeatable on a noisy machine).
let arguments = Array(CommandLine.arguments.dropFirst())
let sections = ["bus", "broker", "renderers", "layout", "planner", "wire"]
if arguments.first == "--help" || arguments.first == "-h" {
    print("usage: nook-bench [--only \(sections.joined(separator: "|"))] | [--profile update|typical [runs]]")
    exit(0)
}
if arguments.first == "--profile" {
    guard arguments.count >= 2, let profile = PlannerProfileCase(rawValue: arguments[1]) else {
        FileHandle.standardError.write("nook-bench: --profile needs update or typical\n".data(using: .utf8)!)
        exit(2)
    }
    let runs = arguments.count >= 3 ? Int(arguments[2]) ?? 10 : 10
    print("checksum \(runPlannerProfile(profile, runs: runs))")
    exit(0)
}
if arguments.first == "--only", arguments.count != 2 || !sections.contains(arguments[1]) {
    FileHandle.standardError.write("nook-bench: --only needs one of \(sections.joined(separator: ", "))\n".data(using: .utf8)!)
    exit(2)
} else if !arguments.isEmpty && arguments.first != "--only" {
    FileHandle.standardError.write("nook-bench: unknown argument \(arguments[0]); see --help\n".data(using: .utf8)!)
    exit(2)
}
let only: String? = arguments.first == "--only" ? arguments[1] : nil
let wanted = { (name: String) -> Bool in only == nil || only == name }

print("Nook benchmarks (release build)\n")
var figures: [Figure] = []
if wanted("bus") {
    figures += try await runBusBenchmark()
    section()
}
if wanted("broker") {
    figures += try await runBrokerBenchmark()
    section()
}
if wanted("renderers") {
    figures += try await runManyRenderersBenchmark()
    section()
}
if wanted("layout") {
    figures += runLayoutBenchmark()
    section()
}
if wanted("planner") {
    figures += runPlannerBenchmark()
    section()
}
if wanted("wire") {
    figures += runWireSizeBenchmark()
    section()
}
// SPEC's order: planning, publish-to-renderer, RSS and readiness; then supporting figures.
let order = ["planner", "plan bytes", "broker", "rss", "ready", "layout", "bus", "sustained"]
figures.sort { a, b in
    let rank = { (f: Figure) in order.firstIndex { f.name.hasPrefix($0) } ?? order.count }
    return rank(a) < rank(b)
}
Report.printTable(figures)
if only == nil {
    let json = Report.defaultJSONPath()
    try Report.writeJSON(figures, to: json)
    print("\nwritten to \(json.path)")
}
