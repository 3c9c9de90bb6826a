/// Something in `state.json` that restoring refused: it failed the validation live input gets
/// (an invalid id, a view too deep, NaN, a module over its activity limit, a theme override the
/// theme refuses, a presentation whose content is gone). The rest of the file is restored; a
/// rejected entry is logged and kept, as it was stored, in `state.rejected-<...>.json`.
public struct RejectedEntry: Encodable, Hashable, Sendable {
    public enum Kind: String, Encodable, Sendable {
        case module, content, activity, token, setting, presentation
    }

    public var kind: Kind
    /// The module it belongs to (module, content, activity), if any.
    public var module: String?
    /// The activity id (activity).
    public var activity: String?
    /// The slot (content), token path (token), setting name (setting).
    public var key: String?
    /// Why it was refused: the error live input would have got.
    public var reason: String
    /// The entry as it was stored.
    public var stored: Stored

    public enum Stored: Encodable, Hashable, Sendable {
        case module(RegistrySnapshot.Module)
        case activity(RegistrySnapshot.Activity)
        case node(StoredNode)
        case value(StoredValue)
        /// An entry that could not even be decoded, as JSON.
        case json(RawJSON)

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .module(let module): try container.encode(module)
            case .activity(let activity): try container.encode(activity)
            case .node(let node): try container.encode(node)
            case .value(let value): try container.encode(value)
            case .json(let raw): try container.encode(raw)
            }
        }
    }

    /// `activity "song" of module "music"`, `content home of module "music"`, `token motion.x`.
    public var name: String {
        switch kind {
        case .module: "module \"\(module ?? "")\""
        case .content: "content \(key ?? "") of module \"\(module ?? "")\""
        case .activity: "activity \"\(activity ?? "")\" of module \"\(module ?? "")\""
        case .token: "theme override \(key ?? "")"
        case .setting: "setting \(key ?? "")"
        case .presentation: "presentation"
        }
    }

    /// The log line: what was set aside and why.
    public var warning: String { "set aside \(name): \(reason)" }
}

/// `state.rejected-<...>.json`: what one start refused, for a person to read (and, if they
/// wish, fix and feed back by hand).
struct RejectedFile: Encodable {
    var format = "nook-state-rejected"
    var version = 1
    /// The state file the entries came from.
    var source: String
    var rejected: [RejectedEntry]
}
