import Foundation
@testable import NookBroker
import NookBus
import NookTestSupport
import Testing

/// The theme file's watch follows a path whose directories do not exist yet, whichever way they
/// appear: `mkdir -p` makes several levels between two looks, and a file written at once after.
@Suite struct FileChangeWatchTests {
    /// Counts the watch's reports.
    final class Reports: Sendable {
        let count = Locked(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func aFileWrittenRightAfterItsDirectoriesAreMadeAtOnceIsSeen() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        // Many rounds: the directories appear while the watch is between two levels.
        for round in 0..<40 {
            let file = temp.url.appendingPathComponent("r\(round)/a/b/c/theme.json")
            let reports = Reports()
            let watch = try #require(await Self.watch(file) { reports.add() })
            defer { watch.stop() }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: file)
            #expect(await eventually { reports.value > 0 }, "round \(round): the file written under new directories was not seen")
        }
    }

    @Test func aDirectoryRemovedAndMadeAgainIsFollowed() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("nook/theme.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let reports = Reports()
        let watch = try #require(await Self.watch(file) { reports.add() })
        defer { watch.stop() }
        for round in 0..<20 {
            let before = reports.value
            try FileManager.default.removeItem(at: file.deletingLastPathComponent())
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{\"round\": \(round)}".utf8).write(to: file)
            #expect(await eventually { reports.value > before }, "round \(round): the file in the remade directory was not seen")
            let settled = reports.value
            try Data("{\"round\": \(round), \"again\": true}".utf8).write(to: file)
            #expect(await eventually { reports.value > settled }, "round \(round): a save in the remade directory was not seen")
        }
    }

    /// A watch on `file`, waiting for an inotify instance if every one is taken for now (the
    /// limit is per user, and every test's processes hold some).
    static func watch(_ file: URL, onChange: @escaping @Sendable () -> Void) async -> FileChangeWatch? {
        let made = Locked<FileChangeWatch?>(nil)
        _ = await eventually {
            guard let watch = FileChangeWatch(path: file.path, onChange: onChange) else { return false }
            made.withLock { $0 = watch }
            return true
        }
        return made.withLock { $0 }
    }
}
