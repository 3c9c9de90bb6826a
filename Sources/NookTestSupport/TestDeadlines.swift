import Foundation

/// How much longer than usual a test waits for something that should come. Deadlines matter
/// only when the awaited thing never comes, so lengthening them never slows a passing test;
/// a sanitized build (ThreadSanitizer runs every process five to fifteen times slower) sets
/// `NOOK_TEST_DEADLINE_SCALE`, a whole number from 1 (the default) to 20.
public enum TestDeadlines {
    public static let scale: Int = {
        guard let text = ProcessInfo.processInfo.environment["NOOK_TEST_DEADLINE_SCALE"], let value = Int(text) else { return 1 }
        return min(max(value, 1), 20)
    }()

    /// `deadline` lengthened by `scale`.
    public static func scaled(_ deadline: Duration) -> Duration { deadline * scale }
}
