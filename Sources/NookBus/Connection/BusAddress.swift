import Glibc

/// Which bus to connect to.
public enum BusAddress: Hashable, Sendable {
    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    case session
    /// An explicit D-Bus address, such as `unix:path=/tmp/test-bus`.
    case address(String)

    /// The address text, found for `.session` as `sd_bus_open_user` finds it; nil when the
    /// environment names no session bus.
    func resolved(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        switch self {
        case .address(let text): return text
        case .session:
            if let text = environment("DBUS_SESSION_BUS_ADDRESS"), !text.isEmpty { return text }
            guard let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return nil }
            return "unix:path=" + Self.escaped(runtime) + "/bus"
        }
    }

    /// A value escaped as the D-Bus specification asks of address values: bytes outside
    /// `[-0-9A-Za-z_/.\*]` become `%xx`.
    static func escaped(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "\\"), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789abcdef".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
