import Foundation
import NookTestSupport
import Testing

/// Issue 45: a module author's own package, depending on this checkout by path, builds a source
/// written in SwiftUI's words against NookModuleAPI, and the build prints no warning (CGtk's
/// `-pthread` from pkg-config used to show in every such build, four times).
struct ExternalPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let package = root.appendingPathComponent("Tests/ExternalPackage")

    /// The spellings the issue names, each in the outside package's source as written.
    static let swiftUIWords = [
        ".font(.headline)", ".bold()", ".foregroundColor(.red)", "ProgressView(value: 3, total: 10)",
        "Label(\"Build\", systemImage: \"hammer\")", "Image(systemName: \"x\").resizable()", ".nookSharedElement(\"icon\", isSource: false)",
    ]

    @Test func theSourceUsesSwiftUIsOwnWords() throws {
        let source = try String(contentsOf: Self.package.appendingPathComponent("Sources/SwiftUIWords/main.swift"), encoding: .utf8)
        for word in Self.swiftUIWords {
            #expect(source.contains(word), "Tests/ExternalPackage's main.swift no longer writes \(word)")
        }
    }

    @Test func aPackageOutsideThisOneBuildsAgainstNookModuleAPIWithoutAWarning() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A copy beside a link named `Nook` to this checkout: the dependency's identity is
        // `Nook` wherever the checkout lives (CI clones it under another name).
        let copy = directory.url.appendingPathComponent("SwiftUIWords")
        try FileManager.default.copyItem(at: Self.package, to: copy)
        try FileManager.default.createSymbolicLink(at: copy.appendingPathComponent("Nook"), withDestinationURL: Self.root)
        let result = try await Tools.run(
            "swift", ["build", "--package-path", copy.path, "--scratch-path", directory.url.appendingPathComponent("build").path])
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "the outside package did not build:\n\(output)")
        let warnings = output.split(separator: "\n").filter { $0.localizedCaseInsensitiveContains("warning:") }
        #expect(warnings.isEmpty, "the outside package's build warned:\n\(warnings.joined(separator: "\n"))")
    }
}
