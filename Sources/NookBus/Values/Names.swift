/// An object path (`/org/nook/Nook1`), validated on construction.
public struct ObjectPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) throws(BusNameError) {
        guard ObjectPath.isValid(rawValue) else { throw BusNameError(kind: "object path", value: rawValue) }
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { rawValue }

    public static let root: ObjectPath = "/"

    static func isValid(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousSlash = false
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if previousSlash { return false }
                previousSlash = true
            } else {
                guard isNameByte(byte) else { return false }
                previousSlash = false
            }
        }
        return true
    }
}

public struct BusNameError: Error, Hashable, Sendable, CustomStringConvertible {
    public let kind: String
    public let value: String
    public var description: String { "invalid \(kind) '\(value)'" }
}

/// Validation of bus, interface and member names, as the D-Bus specification defines them.
public enum BusNames {
    /// A well-known (`org.nook.Nook1`) or unique (`:1.42`) bus name.
    public static func isValidBusName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        let unique = bytes[0] == UInt8(ascii: ":")
        let elements = (unique ? bytes.dropFirst() : bytes[...]).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        for element in elements {
            guard !element.isEmpty else { return false }
            for byte in element where !(isNameByte(byte) || byte == UInt8(ascii: "-")) { return false }
            if !unique, let first = element.first, isDigit(first) { return false }
        }
        return true
    }

    public static func isValidInterfaceName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy(isValidElement)
    }

    public static func isValidMemberName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count <= 255 && isValidElement(bytes[...])
    }

    public static func isValidErrorName(_ name: String) -> Bool { isValidInterfaceName(name) }

    private static func isValidElement(_ element: ArraySlice<UInt8>) -> Bool {
        guard let first = element.first, !isDigit(first) else { return false }
        return element.allSatisfy(isNameByte)
    }
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

/// `[A-Za-z0-9_]`
func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || isDigit(byte) || byte == 0x5F
}
