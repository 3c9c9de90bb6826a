import Foundation
import NookBroker
import NookCommandLine

// `make bench`: every benchmark prints its detailed table and returns its figures; the
// summary table and `.build/bench.json` come last. Ratios are against baselines measured in
// the same run.
//
// `--only planner|layout|notifications|renderers|broker|bus|wire` runs one benchmark (and its summary rows) only.
// `--profile update|typical|small|publish|publish-crowd [--runs N]` runs only that case N times, untimed, for
// `valgrind --tool=callgrind` (instruction counts are repeatable on a noisy machine);
// `--profile wire|wire-update` likewise writes the publish or the 10,000-node plan's message
// (`wire-dictionary`, `wire-update-dictionary`: through `wireDictionary`, as before the tape).
// `--serve-zero-work broker|notifications|forwarder|notificationsChain --address A` is how the benchmarks start a
// zero-work baseline in a process of its own (ZeroWorkProcess.swift); it serves until SIGTERM.
// The planner's figures are what nookd pays per plan, so plans here live in a heap kept as
// nookd keeps its own (BrokerHeap.keepPlanningMemory); the zero-work children run with it too.
BrokerHeap.keepPlanningMemory()

let sections = ["bus", "broker", "renderers", "notifications", "layout", "planner", "wire", "footprint", "renderer"]
let commandLine = CommandLineInterface(
    program: "nook-bench",
    usage: ["[--only \(sections.joined(separator: "|"))]", "--profile update|typical|small|publish[-crowd]|wire|wire-update[-dictionary] [--runs N]", "--help | --version"],
    about: "Release-build benchmarks; ratios are against baselines measured in the same run.",
    options: [
        .value("--only", "SECTION", help: "run one benchmark (and its summary rows) only: \(sections.joined(separator: ", "))"),
        .value("--profile", "CASE", help: "run only that case, untimed, for callgrind: update, typical, small (planning), publish or publish-crowd (a module update's decode and registry, 1 or 256 x 4 activities), wire or wire-update (a plan to its message; -dictionary: the old way)"),
        .value("--runs", "N", help: "with --profile: how many runs, 1...1000000 (default 10)"),
        .value("--serve-zero-work", "KIND", help: "(the benchmarks start this) serve a zero-work baseline, \(ZeroWorkKind.allCases.map(\.rawValue).joined(separator: ", ")), in this process on --address until SIGTERM"),
        .value("--address", "ADDRESS", help: "with --serve-zero-work: the bus to serve on"),
    ])
let parsed = commandLine.parseOrExit()
if let name = parsed.value("--serve-zero-work") {
    guard let kind = ZeroWorkKind(rawValue: name) else {
        commandLine.fail("option '--serve-zero-work' needs \(ZeroWorkKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(name.prefix(200))'")
    }
    guard let address = parsed.value("--address") else { commandLine.fail("--serve-zero-work needs --address") }
    try serveZeroWork(kind, address: address)
}
if parsed.flag("--address") { commandLine.fail("--address applies to --serve-zero-work only") }
if let name = parsed.value("--profile") {
    let runs = parsed.integer("--runs", in: 1...1_000_000) ?? 10
    switch name {
    case "publish": print("checksum \(runPublishProfile(runs: runs))")
    case "publish-crowd": print("checksum \(runPublishProfile(runs: runs, modules: 256, activitiesPerModule: 4))")
    case "wire", "wire-dictionary": print("checksum \(try runWireEncodeProfile(.publish(), dictionary: name != "wire", runs: runs))")
    case "wire-update", "wire-update-dictionary":
        print("checksum \(try runWireEncodeProfile(.update(), dictionary: name != "wire-update", runs: runs))")
    default:
        guard let profile = PlannerProfileCase(rawValue: name) else {
            commandLine.fail("option '--profile' needs update, typical, small, publish, publish-crowd, wire, wire-update (+ -dictionary), got '\(name.prefix(200))'")
        }
        print("checksum \(runPlannerProfile(profile, runs: runs))")
    }
    exit(0)
}
if parsed.flag("--runs") { commandLine.fail("--runs applies to --profile only") }
let only = parsed.value("--only")
if let only, !sections.contains(only) { commandLine.fail("option '--only' needs one of \(sections.joined(separator: ", ")), got '\(only.prefix(200))'") }
let wanted = { (name: String) -> Bool in only == nil || only == name }

print("Nook benchmarks (release build)\n")
var figures: [Figure] = []
// Each section's benchmark, in the order they run.
let benchmarks: KeyValuePairs<String, () async throws -> [Figure]> = [
    "bus": runBusBenchmark,
    "broker": runBrokerBenchmark,
    "renderers": { try await runManyRenderersBenchmark() },
    "notifications": runNotificationsBenchmark,
    "layout": runLayoutBenchmark,
    "planner": runPlannerBenchmark,
    "wire": { try runWireSizeBenchmark() + runWireEncodeBenchmark() },
    "renderer": { try await runRendererTransitionBenchmark() },
    "footprint": runFootprintBenchmark,
]
for (name, run) in benchmarks where wanted(name) {
    figures += try await run()
    section()
}
// SPEC's order: planning, publish-to-renderer, RSS and readiness; then supporting figures.
let order = ["planner", "plan bytes", "broker", "notifications", "rss", "footprint", "renderer", "ready", "layout", "bus", "sustained"]
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
