import NookBus
import NookCore

/// Arguments of the control verbs (`press`, `actions`; contract 1.1 Touch).
extension VerbTable {
    /// `M/A` names an activity; a plain `M` the module's own views (activity `""`).
    static func controlOwner(_ text: String, verb: String) throws(UsageError) -> (module: String, activity: String) {
        if text.contains("/") { return try ValueParsing.moduleActivity(text, verb: verb) }
        return (try ValueParsing.module(text, verb: verb), "")
    }

    static func press(_ p: ParsedArguments) throws(UsageError) -> Command {
        let (module, activity) = try controlOwner(p.positionals[0], verb: p.verb)
        let action = p.positionals[1]
        guard !action.isEmpty else { throw UsageError("expected an action id, found ''", verb: p.verb) }
        return .press(module: module, activity: activity, action: action)
    }

    static func actions(_ p: ParsedArguments) throws(UsageError) -> Command {
        let (module, activity) = try controlOwner(p.positionals[0], verb: p.verb)
        return .actions(module: module, activity: activity)
    }
}

extension ContractCall {
    /// `Control.Invoke` (contract 1.1): presses a control as a script.
    public static func invoke(module: String, activity: String, action: String) -> ContractCall {
        ContractCall(NookContract.Control.invoke, [.string(module), .string(activity), .string(action), .vardict([:])])
    }
}
