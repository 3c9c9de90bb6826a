/// nookctl's exit status: 0 ok, 1 a failure (a D-Bus error, printed with its name and
/// message; also a bus that cannot be reached or a file that cannot be read), 2 usage.
public struct ExitStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int32

    public static let ok = ExitStatus(code: 0)
    public static let failure = ExitStatus(code: 1)
    public static let usage = ExitStatus(code: 2)

    public var description: String { String(code) }
}
