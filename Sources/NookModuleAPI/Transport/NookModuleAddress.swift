import NookCore
/// Where a module finds the broker.
public enum NookModuleAddress: Hashable, Sendable {
    /// The user's session bus, where `nookd` normally runs.
    case session
    /// Another bus, by its address (`unix:path=/run/user/1000/bus`): tests, nested sessions.
    case bus(String)

    /// `--address ADDR` from a command line, or `.session` when it is absent.
    public init(commandLine arguments: [String]) {
        if let index = arguments.firstIndex(of: "--address"), index + 1 < arguments.count {
            self = .bus(arguments[index + 1])
        } else {
            self = .session
        }
    }
}
