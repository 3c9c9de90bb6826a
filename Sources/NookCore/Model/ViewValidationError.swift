/// Why a view tree was refused: which node or prop, which rule, and a sentence for humans.
///
/// The broker turns this into `org.nook.Nook1.Error.InvalidView` (or `InvalidId`,
/// `LimitsExceeded`) with `description` as the message, so the module author sees the path.
public struct ViewValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending node or prop, e.g. `expanded/0/2.shared.id`.
    public var path: String
    public var code: Code
    /// A sentence naming what was wrong and what was expected.
    public var message: String

    /// Paths hold client keys: quoted at most `InputQuote.maxCharacters`.
    public var description: String { "\(InputQuote.text(path)): \(message) [\(code.rawValue)]" }

    /// The rule that was broken, kebab-case and stable.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        case unknownKind = "unknown-kind"
        case wrongType = "wrong-type"
        case invalidId = "invalid-id"
        case invalidGroupName = "invalid-group-name"
        /// NaN, infinite or negative where a size is expected.
        case invalidSize = "invalid-size"
        /// A value of the right type outside its allowed set or range (enum strings, opacity).
        case invalidValue = "invalid-value"
        case missingKey = "missing-key"
        case stringTooLong = "string-too-long"
        case tooDeep = "too-deep"
        case tooManyNodes = "too-many-nodes"
        /// Children under a kind that draws no children (`text`, `image`, ...).
        case unexpectedChildren = "unexpected-children"
        /// `params` or `group_state` beyond `ViewLimits.maxParamEntries` / `maxParamDepth`.
        case tooManyParams = "too-many-params"

        /// True for codes that are limit violations (the broker answers `LimitsExceeded`).
        public var isLimit: Bool {
            switch self {
            case .stringTooLong, .tooDeep, .tooManyNodes, .tooManyParams: true
            default: false
            }
        }
    }
}

extension ViewValidationError: FieldReadFailure {
    /// A prop the one `FieldReader` refused, under the matching view rule.
    public init(field: WireFieldError) {
        let code: Code =
            switch field.kind {
            case .wrongType: .wrongType
            case .missing: .missingKey
            case .tooLong: .stringTooLong
            case .invalidValue: .invalidValue
            }
        self.init(path: field.key, code: code, message: field.message)
    }
}
