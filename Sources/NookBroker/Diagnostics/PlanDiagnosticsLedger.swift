import NookCore

/// Contract 1.1 "Diagnostics": what each module has been told about its views since its
/// content last changed, so plan-time diagnostics reach their module once, not once per plan
/// or per renderer.
///
/// A module hears each distinct (code, element, activity) once per change of its content (a
/// start, update or end of one of its activities, or a module-level slot set or cleared).
/// Diagnostics that name no element are told apart by their path as well, so two problems
/// in one view are not folded into one. What the registry already sent when the module
/// published (its class problems, `missing-group` among them) counts as told. Value type,
/// no bus: the broker sends what `news` returns.
struct PlanDiagnosticsLedger: Hashable, Sendable {
    /// The planner's codes that concern one module's views (contract 1.1).
    static let routed: Set<DiagnosticCode> = [.duplicateSource, .sharedInDelayedRow, .noCounterpart, .capsuleNotShared, .missingGroup]

    struct Told: Hashable, Sendable {
        var code: DiagnosticCode
        var element: String
        var activity: String
        /// Only for diagnostics about no element.
        var path: String

        init(_ diagnostic: Diagnostic) {
            code = diagnostic.code
            element = diagnostic.id
            activity = diagnostic.activity
            path = diagnostic.isAboutElement ? "" : diagnostic.path
        }
    }

    private var told: [String: Set<Told>] = [:]

    /// `module`'s content changed: everything may be said again.
    mutating func contentChanged(_ module: String) { told[module] = nil }

    /// The registry sent `diagnostics` to `module`: they count as told.
    mutating func registrySent(_ diagnostics: [Diagnostic], to module: String) {
        for diagnostic in diagnostics where Self.routed.contains(diagnostic.code) {
            told[module, default: []].insert(Told(diagnostic))
        }
    }

    /// Follows the actions of one registry call: its content changes forget what was told,
    /// then the diagnostics it sent count as told (the registry lists a call's diagnostics
    /// before its scene change, and both belong to the same new content).
    mutating func follow(_ actions: [RegistryAction]) {
        for case .sceneChanged(let change) in actions { contentChanged(change.module) }
        for case .diagnostics(_, let module, let diagnostics) in actions { registrySent(diagnostics, to: module) }
    }

    /// The routed diagnostics among `diagnostics` that modules able to hear them
    /// (`canHear`) have not been told, by module (sorted), in plan order; records them as told.
    mutating func news(in diagnostics: [Diagnostic], canHear: (String) -> Bool) -> [(module: String, diagnostics: [Diagnostic])] {
        var out: [String: [Diagnostic]] = [:]
        for diagnostic in diagnostics where Self.routed.contains(diagnostic.code) && !diagnostic.module.isEmpty {
            guard canHear(diagnostic.module) else { continue }
            guard told[diagnostic.module, default: []].insert(Told(diagnostic)).inserted else { continue }
            out[diagnostic.module, default: []].append(diagnostic)
        }
        return out.keys.sorted().map { ($0, out[$0]!) }
    }
}
