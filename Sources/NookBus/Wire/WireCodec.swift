import NookCore

/// Entry points of the wire codec that are not tied to one Swift type: `a{sv}` records,
/// diagnostics, arrays, and the D-Bus errors a refused view becomes.
///
/// ```swift
/// let spec = try WireCodec.dictionary(call.arguments[1], at: "spec")   // [String: PropValue]
/// let reply = WireCodec.vardict(["presentation": .string("pill")])    // a{sv}, keys sorted
/// ```
public enum WireCodec {
    /// Reads a dictionary keyed by strings (`a{sv}`, or any `a{s*}`) as props. A key's path is
    /// `prefix.key`, or just `key` when `prefix` is empty (the top of a method's `a{sv}`).
    public static func dictionary(_ value: DBusValue, at prefix: String) throws(WireDecodingError) -> [String: PropValue] {
        guard case .dictionary(let keyType, _, let entries) = value.unwrappingVariants else {
            throw WireDecodingError(
                path: prefix.isEmpty ? "(argument)" : prefix,
                message: "expected a dictionary a{sv}, found \(value.unwrappingVariants.signature)")
        }
        guard keyType == "s" else {
            throw WireDecodingError(
                path: prefix.isEmpty ? "(argument)" : prefix,
                message: "dictionary keys must be strings (s), found \(keyType)")
        }
        var out: [String: PropValue] = [:]
        out.reserveCapacity(entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            let path = prefix.isEmpty ? key : NodePath.prop(prefix, key)
            guard out[key] == nil else {
                throw WireDecodingError(path: path, message: "the key \"\(InputQuote.text(key))\" appears more than once")
            }
            out[key] = try PropValue(wire: entry.value, at: path)
        }
        return out
    }

    /// An `a{sv}` with its keys in sorted order, so equal dictionaries encode to equal bytes.
    public static func vardict(_ props: [String: PropValue]) -> DBusValue {
        .dictionary(
            key: "s", value: "v",
            props.sorted { $0.key < $1.key }.map { DBusValue.DictEntry(.string($0.key), .variant($0.value.wireValue)) })
    }

    /// The contract's `aa{sv}` of diagnostics, in the given order.
    public static func diagnostics(_ diagnostics: [Diagnostic]) -> DBusValue {
        .array(element: "a{sv}", diagnostics.map { vardict($0.wireDictionary) })
    }

    /// An array typed by its items when they agree (`ad`, `a(ss)`), else `av`.
    public static func array(_ items: [DBusValue]) -> DBusValue {
        guard let first = items.first?.signature, items.allSatisfy({ $0.signature == first }) else {
            return .array(element: "v", items.map { .variant($0) })
        }
        return .array(element: first, items)
    }

    /// Which contract error a refused view is: limit codes (`too-many-nodes`, `too-deep`,
    /// `string-too-long`, `too-many-params`) are `LimitsExceeded`, malformed ids and group
    /// names `InvalidId`, anything else `InvalidView`.
    public static func errorName(for code: ViewValidationError.Code) -> NookErrorName {
        if code.isLimit { return .limitsExceeded }
        switch code {
        case .invalidId, .invalidGroupName: return .invalidId
        default: return .invalidView
        }
    }
}

extension DBusError {
    /// The contract error for a refused view; the message starts with the offending path
    /// (`compact_leading/0.shared.id: ...`), after `context` when one is given.
    public init(_ error: ViewValidationError, context: String? = nil) {
        let text = context.map { "\($0): \(error.description)" } ?? error.description
        self.init(nook: WireCodec.errorName(for: error.code), text)
    }

    /// A value that cannot be read as what the contract expects: `InvalidArgs` naming its path.
    /// (A view that cannot be read is refused by the caller as `InvalidView`.)
    public init(_ error: WireDecodingError) {
        self.init(nook: .invalidArgs, error.description)
    }
}

extension DBusValue {
    /// Closes every file descriptor inside this value. Reading a message duplicates the
    /// descriptors it carries, so a handler that refuses them must close them or leak them.
    public func closeUnixFDs() {
        switch self {
        case .unixFD(let fd): _ = closeDescriptor(fd)
        case .variant(let inner): inner.closeUnixFDs()
        case .array(_, let items), .structure(let items): for item in items { item.closeUnixFDs() }
        case .dictionary(_, _, let entries):
            for entry in entries {
                entry.key.closeUnixFDs()
                entry.value.closeUnixFDs()
            }
        default: break
        }
    }

    /// True when this value carries a file descriptor anywhere inside.
    public var containsUnixFD: Bool {
        switch self {
        case .unixFD: return true
        case .variant(let inner): return inner.containsUnixFD
        case .array(_, let items), .structure(let items): return items.contains { $0.containsUnixFD }
        case .dictionary(_, _, let entries): return entries.contains { $0.key.containsUnixFD || $0.value.containsUnixFD }
        default: return false
        }
    }
}
