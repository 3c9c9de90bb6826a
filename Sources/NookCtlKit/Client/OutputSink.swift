import FoundationEssentials
import Glibc
import NookFiles

/// Where nookctl writes: standard output and standard error, or anything a test captures.
public struct OutputSink: Sendable {
    public let out: @Sendable (String) -> Void
    public let err: @Sendable (String) -> Void

    /// The process's stdout and stderr, unbuffered so `watch` lines appear as plans arrive.
    public static let standard = OutputSink(
        out: { StandardStream.output.write($0) },
        err: { StandardStream.error.write($0) })
}
