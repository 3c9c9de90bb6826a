import NookCore

/// What a control does, as a value: ActivityKit's `LiveActivityIntent` for the nook.
///
/// An intent is a `Sendable` value (its stored properties are its parameters) whose `perform`
/// is written once, on its type. A button bound to one captures no closure, so views built
/// from an activity's state stay functions of that state, and the action keeps one name on
/// the wire however the views change: `actionID`, by default the type's name in kebab case
/// (`CancelBuild` is `cancel-build`, what `nookctl press build/job cancel-build` presses).
///
/// ```swift
/// struct CancelBuild: NookIntent {
///     let job: BuildJob                       // an actor of yours
///     func perform() async { await job.cancel() }
/// }
///
/// Button("Cancel", intent: CancelBuild(job: job))
/// ```
///
/// `perform` runs in the module as a button's closure does (`NookAction`): one press at a time,
/// in the order they arrive, off any actor.
public protocol NookIntent: Sendable {
    /// The control's action id (SPEC rule 1's charset; at most 128 characters).
    var actionID: String { get }
    /// Runs when the control is pressed.
    func perform() async
}

extension NookIntent {
    public var actionID: String { NookIntentName.kebabCase(String(describing: Self.self)) }
}

enum NookIntentName {
    /// `CancelBuild` -> `cancel-build`, `HTTPRetry` -> `http-retry`, `Skip<Int>` -> `skip-int`:
    /// letters and digits kept, lowercased, a `-` where a word begins; anything else is a word
    /// break. Never empty (`intent`), at most `Identifier.maxLength` characters.
    static func kebabCase(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var out = ""
        func isUpper(_ index: Int) -> Bool { index < scalars.count && scalars[index].properties.isUppercase && scalars[index].isASCII }
        func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
        }
        var pendingBreak = false
        for (index, scalar) in scalars.enumerated() {
            guard isWordCharacter(scalar) else {
                pendingBreak = true
                continue
            }
            // A word starts at an upper-case letter after a lower-case one or a digit, or at the
            // last upper-case letter of a run followed by a lower-case one (`HTTPRetry`).
            let startsWord = isUpper(index) && index > 0
                && (!isUpper(index - 1) || (index + 1 < scalars.count && scalars[index + 1].properties.isLowercase))
            if !out.isEmpty, pendingBreak || startsWord, out.last != "-" { out.append("-") }
            pendingBreak = false
            out.append(String(scalar).lowercased())
        }
        while out.hasSuffix("-") { out.removeLast() }
        if out.isEmpty { return "intent" }
        return String(out.prefix(Identifier.maxLength))
    }
}

extension Button {
    /// A button whose label is `label`, running `intent` when pressed.
    public init(intent: some NookIntent, @NookViewBuilder label: () -> some NookView) {
        self.init(bound: Self.control(label()._encode(), NookAction(intent.perform)), to: intent)
    }

    /// A button titled `title` running `intent` when pressed.
    public init(_ title: String, intent: some NookIntent) {
        self.init(bound: Button(title, action: intent.perform)._encode(), to: intent)
    }

    /// A button drawn as the symbol `systemImage` (`title` is its accessible name), running
    /// `intent` when pressed.
    public init(_ title: String, systemImage: String, intent: some NookIntent) {
        self.init(bound: Button(title, systemImage: systemImage, action: intent.perform)._encode(), to: intent)
    }

    private init(bound control: EncodedView, to intent: some NookIntent) {
        self.init(encoded: control.actionID(intent.actionID))
    }
}
