import Foundation

/// A temporary directory for one test, removed afterwards.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// Where a nookd started for the test keeps its state.
    public var stateDirectory: URL { url.appendingPathComponent("state") }
}
