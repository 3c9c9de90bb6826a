import Foundation
import Testing

/// docs/module-guide.md names every diagnostic code the project can send, so a module author
/// can look up any code they meet.
struct DiagnosticGuideTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `static let x: DiagnosticCode = "code"` in Sources/.
    static func declaredCodes() throws -> Set<String> {
        var codes: Set<String> = []
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": DiagnosticCode = \"") {
                if let literal = line.split(separator: "\"").dropFirst().first { codes.insert(String(literal)) }
            }
        }
        return codes
    }

    @Test func theGuideNamesEveryDiagnosticCode() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/module-guide.md"), encoding: .utf8)
        let codes = try Self.declaredCodes()
        #expect(codes.count > 20, "found only \(codes.sorted())")
        let missing = codes.filter { !guide.contains("`\($0)`") }
        #expect(missing.isEmpty, "docs/module-guide.md does not name \(missing.sorted())")
    }
}
