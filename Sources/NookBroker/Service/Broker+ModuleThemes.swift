import NookCore

/// Module rules at plan time (contract 1.1 "Module rules"): each module's `rules.animations`
/// and `rules.view` are applied over the theme in force, and the planner reads that module's
/// animation scopes with the result (`PlannerSettings.moduleThemes`). `rules.named` were
/// already expanded when the view was published (`ModuleRules.scoping`).
extension Broker {
    /// Recomputes the modules' themes: after a `Register`, after a restore, and whenever the
    /// theme changes. An entry whose rules and base theme are unchanged is kept as it is.
    func refreshModuleThemes() {
        var themes: [String: Theme] = [:]
        for (id, module) in registry.modules where !module.rules.isEmpty {
            let previous = moduleThemeSources[id]
            if let previous, previous.rules == module.rules, previous.base == settings.theme, let theme = settings.moduleThemes[id] {
                themes[id] = theme
                continue
            }
            do {
                themes[id] = try settings.theme.applying(module.rules.tokens)
                log(.debug, "module \(id)'s rules (\(module.rules.tokens.keys.sorted().joined(separator: ", "))) apply to its animation scopes")
            } catch {
                // Validated against the built-in theme at Register; a theme set since may
                // clash (say, a token of another type). The module's views then read the theme.
                log(.warning, "module \(id)'s rules no longer fit the theme (\(error)); its views use the theme's rules")
            }
        }
        moduleThemeSources = themes.keys.reduce(into: [:]) { sources, id in
            sources[id] = ModuleThemeSource(rules: registry.modules[id]!.rules, base: settings.theme)
        }
        if themes != settings.moduleThemes { settings.moduleThemes = themes }
    }
}

/// What a module's theme was made from, to know when it must be made again.
struct ModuleThemeSource {
    let rules: ModuleRules
    let base: Theme
}
