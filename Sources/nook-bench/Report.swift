import Foundation

/// One figure of SPEC's performance section (or a supporting one), as `make bench` reports
/// it: the value, its unit, the goal in words, the ratio to a baseline measured in the same
/// run (when there is one) and whether the goal held (nil: no goal, informational).
struct Figure: Sendable {
    var name: String
    var value: Double
    var unit: String
    var goal: String
    var ratio: Double?
    var met: Bool?
}

/// The summary: one table on stdout, the same figures in `.build/bench.json` as
/// `{"name": {"value", "unit", "goal", "ratio"}}` (plus `met`).
enum Report {
    static func printTable(_ figures: [Figure]) {
        let widths = (name: max(4, figures.map(\.name.count).max() ?? 0), value: 12, goal: max(4, figures.map(\.goal.count).max() ?? 0))
        func cell(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        let header = cell("figure", widths.name) + "  " + cell("value", widths.value, right: true) + " " + cell("unit", 8)
            + "  " + cell("goal", widths.goal) + "  " + cell("ratio", 8, right: true) + "  held"
        print("SUMMARY (SPEC, Performance)")
        print(header)
        print(String(repeating: "-", count: header.count))
        for figure in figures {
            let ratio = figure.ratio.map { fmt($0) + "x" } ?? "-"
            let held = figure.met.map { $0 ? "yes" : "NO" } ?? "-"
            print(cell(figure.name, widths.name) + "  " + cell(fmt(figure.value), widths.value, right: true) + " " + cell(figure.unit, 8)
                  + "  " + cell(figure.goal, widths.goal) + "  " + cell(ratio, 8, right: true) + "  " + held)
        }
        fflush(nil)
    }

    /// Writes the JSON next to the build products (`.build/bench.json` from the package root).
    static func writeJSON(_ figures: [Figure], to url: URL) throws {
        var object: [String: Any] = [:]
        for figure in figures {
            var entry: [String: Any] = ["value": figure.value.isFinite ? figure.value : NSNull(), "unit": figure.unit, "goal": figure.goal]
            entry["ratio"] = figure.ratio.map { $0.isFinite ? $0 as Any : NSNull() } ?? NSNull()
            entry["met"] = figure.met.map { $0 as Any } ?? NSNull()
            object[figure.name] = entry
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: url, options: .atomic)
    }

    /// `.build/bench.json`: found from the executable's path (`.build/<triple>/release/nook-bench`).
    static func defaultJSONPath() -> URL {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var url = URL(fileURLWithPath: exe)
            while url.path != "/" {
                url.deleteLastPathComponent()
                if url.lastPathComponent == ".build" { return url.appendingPathComponent("bench.json") }
            }
        }
        return URL(fileURLWithPath: ".build/bench.json")
    }
}
