import Foundation
import NookTestSupport
import Testing

/// docs/quick-start.md cannot rot: its code blocks are the example's files word for word, and
/// its run script runs the compiled module against a real nookd on a private bus.
struct QuickStartTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced block right after `<!-- quick-start:NAME -->` in the page.
    static func block(after marker: String, in page: String) -> String? {
        guard let at = page.range(of: "<!-- quick-start:\(marker) -->\n") else { return nil }
        let rest = page[at.upperBound...]
        guard let open = rest.range(of: "\n"), rest.hasPrefix("```"), let close = rest.range(of: "\n```\n", range: open.upperBound..<rest.endIndex)
        else { return nil }
        return String(rest[open.upperBound..<close.lowerBound]) + "\n"
    }

    @Test(arguments: ["main.swift", "run.sh"])
    func thePageShowsTheExampleVerbatim(file: String) throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/quick-start.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Examples/QuickStart/\(file)"), encoding: .utf8)
        let shown = try #require(Self.block(after: file, in: page), "docs/quick-start.md has no block for \(file)")
        #expect(shown == source, "docs/quick-start.md's \(file) differs from Examples/QuickStart/\(file)")
    }

    @Test func theRunScriptRunsTheModuleToItsEnd() async throws {
        let bin = try PackageProcess.executable("QuickStart").deletingLastPathComponent()
        let result = try await Tools.run(
            "/bin/bash", [Self.root.appendingPathComponent("Examples/QuickStart/run.sh").path, "--minutes", "0.02"],
            environment: ProcessInfo.processInfo.environment.merging(["NOOK_BIN": bin.path]) { $1 })
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        // A renderer's view (nookctl watch) shows the module in the pill. (Plans are per frame,
        // and the script ends the watcher as soon as the module exits: the first and last
        // plans it prints depend on timing, the pill shown during the 1.2 s timer does not.)
        #expect(result.stdout.split(separator: "\n").contains { $0.contains("-> pill") }, "\(result.stdout)")
        #expect(result.stderr.contains("pomodoro: time is up"), "\(result.stderr)")
    }
}
