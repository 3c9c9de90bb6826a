import NookCore

/// Contract 1.1 "Diagnostics": plan-time diagnostics about a module's views (rule 9's
/// `duplicate-source`, `no-counterpart`, ...) also reach that module through `Diagnostics`,
/// once per change of its content (`PlanDiagnosticsLedger`).
extension Broker {
    /// Tells each module what `plan` says about its views that it has not heard yet.
    func tellModules(about plan: TransitionPlan) {
        let registry = self.registry
        let news = planDiagnostics.news(in: plan.diagnostics) { registry.modules[$0]?.owner.connection != nil }
        for (module, diagnostics) in news {
            guard let target = registry.modules[module]?.owner.connection else { continue }
            sendDiagnostics(diagnostics, to: target, module: module)
        }
    }
}
