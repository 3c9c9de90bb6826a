import Foundation
import NookCore
import NookTestSupport
import NookText
import Testing

/// Item 8 of issue 20: the broker's text widths (`FontTextMeasurer`: fontconfig and HarfBuzz)
/// and what the renderer draws (`nook-renderer --measure-text`: Pango) agree within a pixel.
@Suite struct TextWidthAgreementTests {
    /// Every example string and the 200 mixed ones: the broker's width is within 1 px of
    /// Pango's, and the renderer reports that worst case itself.
    @Test func brokerAndPangoWidthsAgreeWithinOnePixel() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let measurer = FontTextMeasurer(family: Theme.defaultFontFamily)
        let samples = TextSampleTable.all
        #expect(samples.count == TextSampleTable.examples.count + 200)
        var lines = ["# size\tweight\ttnum\tbroker width\ttext"]
        var brokerWidths: [Double] = []
        for sample in samples {
            let width = measurer.measure(
                sample.text, in: TextFont(size: sample.size, weight: sample.weight, monospacedDigits: sample.monospacedDigits)).width
            brokerWidths.append(width)
            lines.append("\(sample.size)\t\(sample.weight)\t\(sample.monospacedDigits ? 1 : 0)\t\(width)\t\(sample.text)")
        }
        let file = scratch.appendingPathComponent("samples.tsv")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let renderer = try PackageProcess(
            "nook-renderer", ["--measure-text", file.path, "--font", Theme.defaultFontFamily], logDirectory: scratch,
            environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(await renderer.waitForExit())
        #expect(renderer.exitStatus == 0, "\(renderer.log)")
        let rows = renderer.log.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| string") }
        try #require(rows.count == samples.count, "\(renderer.log)")
        var worst = 0.0
        for (index, row) in rows.enumerated() {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let pango = try #require(Double(cells[cells.count - 4]), "\(row)")
            let perCharacter = try #require(Double(cells[cells.count - 3]), "\(row)")
            #expect(pango > 0, "\(row)")
            // The renderer's relayout measures (per character) as Pango draws (whole line).
            #expect(abs(perCharacter - pango) <= 0.02, "\(row)")
            let difference = abs(pango - brokerWidths[index])
            worst = max(worst, difference)
            #expect(difference <= 1, "\(samples[index]): broker \(brokerWidths[index]), Pango \(pango)")
        }
        print("text widths: worst |broker - Pango| \(worst) px over \(samples.count) strings")
        let summary = try #require(renderer.log.split(separator: "\n").first { $0.hasPrefix("worst difference") })
        let reported = try #require(Double(summary.split(separator: " ")[2].replacingOccurrences(of: "+", with: "")))
        #expect(abs(reported) <= 1, "\(summary)")
    }
}
