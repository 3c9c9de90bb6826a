import Foundation
import NookTestSupport
import Testing

/// The symbol table draws what each name says: every SF-Symbols-style name documented in
/// docs/module-guide.md, drawn by the real nook-renderer (`--check-symbols`, on a private Xvfb
/// display, through the same image cache as the nook), comes from its own icon (the theme's
/// file or the renderer's drawing), draws something, and is not the fallback an unknown name
/// gets.
struct SymbolWalkTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The names in the guide's symbol table: rows "| `name` | `icon` ... |".
    static func documentedSymbols() throws -> [String] {
        let guide = try String(contentsOf: repository.appendingPathComponent("docs/module-guide.md"), encoding: .utf8)
        guard let start = guide.range(of: "| `Image(systemName:)` | freedesktop icon |") else { return [] }
        var names: [String] = []
        for line in guide[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("| `") else { break }
            names.append(String(line.dropFirst(3).prefix { $0 != "`" }))
        }
        return names
    }

    @Test func everyDocumentedSymbolDrawsItsOwnIconNotTheFallback() async throws {
        let documented = try Self.documentedSymbols()
        #expect(documented.count >= 20, "the guide's symbol table was not found: \(documented)")
        // A display for GTK only: nothing is screenshot, so no screenshot tools are needed.
        let xvfb = try XvfbServer()
        defer { xvfb.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-symbol-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let renderer = try PackageProcess("nook-renderer", ["--check-symbols"], logDirectory: scratch,
                                          environment: ["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "GDK_BACKEND": "x11"])
        #expect(await renderer.waitForExit())
        var rows: [String: [String]] = [:]
        for line in renderer.log.split(separator: "\n") {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if cells.count == 5, cells[0] != "symbol" { rows[cells[0]] = cells }
        }
        #expect(Set(rows.keys) == Set(documented), "the guide's table and the renderer's differ:\n\(renderer.log)")
        for name in documented {
            let row = try #require(rows[name], "\(name) was not drawn:\n\(renderer.log)")
            #expect(row[2] != "missing", "\(name) (\(row[1])) is in no icon theme and not drawn by the renderer")
            #expect((Int(row[3]) ?? 0) > 20, "\(name) (\(row[1])) draws almost nothing: \(row[3]) px")
            #expect(row[4] == "no", "\(name) (\(row[1])) draws the fallback icon")
        }
        // The names this issue found wrong now draw what they say.
        #expect(rows["cup"]?[1] == "nook-cup-symbolic" && rows["cup"]?[2] == "builtin", "\(rows["cup"] ?? [])")
        #expect(rows["info.circle"]?[1] == "help-about-symbolic", "\(rows["info.circle"] ?? [])")
        #expect(renderer.exitStatus == 0, "\(renderer.log)")
    }
}
