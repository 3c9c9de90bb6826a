import Foundation
import NookTestSupport
import Testing

/// Bad command lines: nook-renderer exits with status 2 and names the offending option, before
/// it opens a display or a bus.
struct RendererOptionsTests {
    @Test(arguments: [
        (["--notch", "200"], "option '--notch' needs auto or WxH in points, each 0...10000 (e.g. 200x32 or 0x0), got '200'"),
        (["--notch", "-1x32"], "option '--notch' needs auto or WxH in points, each 0...10000 (e.g. 200x32 or 0x0), got '-1x32'"),
        (["--slow-motion", "-1"], "option '--slow-motion' needs a number in 0.01...1000.0, got '-1'"),
        (["--slow-motion"], "option '--slow-motion' needs a value (FACTOR)"),
        (["--adress", "unix:path=/x"], "unknown option '--adress'"),
    ])
    func badOptionIsNamed(arguments: [String], message: String) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-renderer-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let renderer = try PackageProcess("nook-renderer", arguments, logDirectory: scratch, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(await renderer.waitForExit())
        #expect(renderer.exitStatus == 2)
        #expect(renderer.log.contains(message), "\(renderer.log)")
    }

    /// `--measure-text` needs no display: one table row per sample string, Pango's sizes positive.
    @Test func measureTextPrintsOneRowPerSample() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-renderer-measure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let renderer = try PackageProcess("nook-renderer", ["--measure-text"], logDirectory: scratch, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(await renderer.waitForExit())
        #expect(renderer.exitStatus == 0)
        let rows = renderer.log.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| string") }
        #expect(rows.count == 14, "\(renderer.log)")
        for row in rows {
            // `| text | where | size | broker w x h | Pango w x h | ...`: Pango's width is not 0.
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let pangoWidth = cells.count > 4 ? Double(cells[4].split(separator: " ").first ?? "") : nil
            #expect((pangoWidth ?? 0) > 0, "\(row)")
        }
    }
}
