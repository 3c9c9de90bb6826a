import CSystemd
import Glibc

/// An error that travels over D-Bus: a name (`org.freedesktop.DBus.Error.InvalidArgs`) and a
/// message. Throw one from a method handler and the caller receives it by name; a failed call
/// throws one with the name the peer (or the bus) sent.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public init(_ standard: StandardError, _ message: String) {
        self.init(name: standard.rawValue, message: message)
    }

    public var description: String { "\(name): \(message)" }

    /// The standard errors of the `org.freedesktop.DBus.Error` family this project uses.
    public enum StandardError: String, Sendable, CaseIterable {
        case failed = "org.freedesktop.DBus.Error.Failed"
        case noMemory = "org.freedesktop.DBus.Error.NoMemory"
        case serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        case nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        case noReply = "org.freedesktop.DBus.Error.NoReply"
        case timeout = "org.freedesktop.DBus.Error.Timeout"
        case disconnected = "org.freedesktop.DBus.Error.Disconnected"
        case invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        case invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        case unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        case unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        case unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        case unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        case propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        case accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        case limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
        case notSupported = "org.freedesktop.DBus.Error.NotSupported"
    }

    public var standardError: StandardError? { StandardError(rawValue: name) }
}

/// A failure inside the binding or sd-bus itself, before anything reached a peer.
public enum BusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An sd-bus function returned a negative errno.
    case system(function: String, errno: Int32)
    /// The connection is closed (by `close()`, or because the bus went away).
    case disconnected
    /// `requestName` found the name owned by another connection.
    case nameTaken(String)
    case invalidName(BusNameError)
    case invalidValue(DBusTypeError)

    public var description: String {
        switch self {
        case .system(let function, let errno):
            "\(function) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        case .disconnected: "the bus connection is closed"
        case .nameTaken(let name): "the name '\(name)' is already owned by another connection"
        case .invalidName(let error): error.description
        case .invalidValue(let error): error.description
        }
    }
}

/// Checks the result of one sd-bus call: a negative errno becomes a `BusError` naming the
/// function, so every failure says which C call failed and why.
@inline(__always)
@discardableResult
func check(_ result: Int32, _ function: StaticString) throws(BusError) -> Int32 {
    if result < 0 { throw BusError.system(function: "\(function)", errno: -result) }
    return result
}
