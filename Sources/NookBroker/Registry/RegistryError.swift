import NookCore

/// Why the registry refused a call. Each kind is one error of the contract (the service maps
/// them by name); the message always names the offending key, path or id.
public struct RegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `org.nook.Nook1.Error.InvalidId`: a module, activity or shared id breaks SPEC rule 1.
        case invalidId
        /// `org.nook.Nook1.Error.NotRegistered`: the caller's connection registered no module.
        case notRegistered
        /// `org.nook.Nook1.Error.ModuleTaken`: another live connection holds the id.
        case moduleTaken
        /// `org.nook.Nook1.Error.UnknownActivity`
        case unknownActivity
        /// `org.nook.Nook1.Error.ActivityExists`
        case activityExists
        /// `org.nook.Nook1.Error.UnknownModule`: a `module` key names no registered module.
        case unknownModule
        /// `org.nook.Nook1.Error.InvalidView`
        case invalidView
        /// `org.freedesktop.DBus.Error.InvalidArgs`: a missing key, a wrong type, a bad value.
        case invalidArgs
        /// `org.freedesktop.DBus.Error.AccessDenied`: the module belongs to another connection.
        case accessDenied
        /// `org.freedesktop.DBus.Error.LimitsExceeded`
        case limitsExceeded
        /// `org.nook.Nook1.Error.ActivityDismissed` (an addition): a person dismissed that id.
        case activityDismissed
        /// `org.nook.Nook1.Error.InvalidTheme`: `Register` info `rules` a token path refuses.
        case invalidTheme

        /// The class of a refused view: limits, ids, anything else.
        public static func forView(_ code: ViewValidationError.Code) -> Kind {
            if code.isLimit { return .limitsExceeded }
            switch code {
            case .invalidId, .invalidGroupName: return .invalidId
            default: return .invalidView
            }
        }
    }

    public var kind: Kind
    public var message: String
    /// The validation error behind an `invalidView` / `invalidId` / `limitsExceeded` of a view.
    public var viewError: ViewValidationError?

    public init(_ kind: Kind, _ message: String, viewError: ViewValidationError? = nil) {
        self.kind = kind
        self.message = message
        self.viewError = viewError
    }

    /// A refused view, classified; `context` says whose view it was.
    static func view(_ error: ViewValidationError, context: String) -> RegistryError {
        RegistryError(Kind.forView(error.code), "\(context): \(error.description)", viewError: error)
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}

extension RegistryError: FieldReadFailure {
    /// A call argument the one `FieldReader` refused: `<context>: key '<path>': <what>`.
    public init(field: WireFieldError) {
        let prefix = field.context.isEmpty ? "" : field.context + ": "
        self.init(field.kind == .tooLong ? .limitsExceeded : .invalidArgs, "\(prefix)key '\(field.key)': \(field.message)")
    }
}
