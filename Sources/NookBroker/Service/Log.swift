import Foundation

/// Leveled log lines on stderr: `nookd[pid] level: message`.
public struct Log: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        var name: String { ["debug", "info", "warning", "error"][rawValue] }
    }

    public var minimum: Level

    public init(minimum: Level = .info) { self.minimum = minimum }

    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        FileHandle.standardError.write(Data("nookd[\(getpid())] \(level.name): \(message())\n".utf8))
    }
}
