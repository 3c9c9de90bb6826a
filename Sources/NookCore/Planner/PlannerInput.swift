/// What the planner needs besides the two scenes: the theme, the display, Reduce Motion and
/// the programmatic curve overrides. Build once per settings change and reuse: the geometry
/// tokens and named rules are read from the theme here, not per plan.
public struct PlannerSettings: Hashable, Sendable {
    public var theme: Theme {
        didSet { (geometry, namedRules, layoutRules, settleTimes, motion, fontFamily) = Self.readTokens(theme) }
    }
    public var display: DisplayInfo
    /// Rule 18.
    public var reduceMotion: Bool
    /// Replaces `motion.sharedElement.convert` (rule 14).
    public var sharedElementAnimation: CurveOverride
    /// Replaces `motion.sharedElement.peek` (rule 14).
    public var sharedElementPeekAnimation: CurveOverride
    /// `geometry.*` from the theme.
    public private(set) var geometry: GeometryTokens
    /// `rules.named` from the theme.
    public private(set) var namedRules: [String: String]
    /// `rules.named` as layout utilities, worked out once per theme.
    private(set) var layoutRules: NamedLayoutRules
    /// The settle time of every spring the theme holds, solved once here rather than per plan.
    private(set) var settleTimes: [Spring: Double]
    /// The theme's motion tokens the planner reads on every plan, looked up once.
    private(set) var motion: PlannerMotion
    /// `font.family` from the theme: the family text is measured in and drawn in (every plan
    /// carries it as `font_family`).
    public private(set) var fontFamily: String
    /// How layout measures text: `.estimate` (`TextMetrics`, for goldens and pure tests) unless
    /// the host sets a measurer for `fontFamily` (nookd: fontconfig and HarfBuzz).
    public var textMeasurement: TextMeasurement = .estimate
    /// Each module's own rules (`Register` `rules`) applied over `theme`, by module id: the
    /// theme that module's animation scopes read (`animate-<name>`, `rules.view.*`), so its
    /// definitions come before the theme's of the same name and no other module meets them.
    /// The host keeps it in step with `theme`.
    public var moduleThemes: [String: Theme] = [:]

    /// The theme `module`'s animation scopes read.
    public func theme(forModule module: String) -> Theme { moduleThemes[module] ?? theme }

    public init(
        theme: Theme = .builtIn, display: DisplayInfo, reduceMotion: Bool = false,
        sharedElementAnimation: CurveOverride = .theme, sharedElementPeekAnimation: CurveOverride = .theme
    ) {
        self.theme = theme
        self.display = display
        self.reduceMotion = reduceMotion
        self.sharedElementAnimation = sharedElementAnimation
        self.sharedElementPeekAnimation = sharedElementPeekAnimation
        (geometry, namedRules, layoutRules, settleTimes, motion, fontFamily) = Self.readTokens(theme)
    }

    /// What the settings keep read from `theme`, in declaration order: built by `init` and
    /// again whenever `theme` changes.
    private static func readTokens(_ theme: Theme)
        -> (GeometryTokens, [String: String], NamedLayoutRules, [Spring: Double], PlannerMotion, String)
    {
        let namedRules = theme.namedRules
        return (
            GeometryTokens(theme: theme), namedRules, NamedLayoutRules(namedRules), settleTimes(theme),
            PlannerMotion(theme: theme), theme.fontFamily
        )
    }

    private static func settleTimes(_ theme: Theme) -> [Spring: Double] {
        var out: [Spring: Double] = [:]
        for token in theme.tokens.values {
            if case .spring(let spring) = token.value, out[spring] == nil { out[spring] = spring.settleDuration }
        }
        return out
    }
}

/// The action that caused the plan.
public struct PlanAction: Hashable, Sendable {
    public var cause: PlanCause
    /// This plan's serial.
    public var serial: UInt64
    /// For `open`: a claim (may dip through hidden) or a hover (always direct). Rule 13.
    public var via: OpenVia
    /// For content updates: false is `animate: false` (disablesAnimations); nothing animates.
    public var animate: Bool
    /// For content updates: the update's `animation` option, the caller's own preset, used by
    /// scopes that name none (rule 17).
    public var callerAnimation: String?

    /// Distinct causes of earlier changes coalesced into this action (oldest first, without
    /// `cause`): a renderer gets at most one plan per frame.
    public var earlierCauses: [PlanCause] = []

    public init(cause: PlanCause, serial: UInt64, via: OpenVia = .claim, animate: Bool = true, callerAnimation: String? = nil) {
        self.cause = cause
        self.serial = serial
        self.via = via
        self.animate = animate
        self.callerAnimation = callerAnimation
    }

    /// Every distinct cause this action covers, oldest first, ending with `cause`.
    public var causes: [PlanCause] { earlierCauses + [cause] }

    /// `later` replacing this pending action in the same frame: the later action is planned
    /// (the latest state wins), remembering this one's causes. A theme change after another
    /// change of the same frame does not take its place: that change is planned (in the new
    /// theme, so restyled too), with the later serial and `theme_changed` among its causes, so
    /// an `Open` followed at once by a `SetTokens` still animates.
    public func coalescing(_ later: PlanAction) -> PlanAction {
        if later.cause == .themeChanged, cause != .themeChanged {
            var kept = self
            kept.serial = later.serial
            if !kept.earlierCauses.contains(.themeChanged) { kept.earlierCauses.append(.themeChanged) }
            return kept
        }
        var merged = later
        merged.earlierCauses = []
        for cause in causes where cause != later.cause && !merged.earlierCauses.contains(cause) {
            merged.earlierCauses.append(cause)
        }
        return merged
    }
}

/// The plan still running when a new one starts, and how far into it the new one starts (rule 21).
public struct InFlightPlan: Hashable, Sendable {
    public var plan: TransitionPlan
    /// Seconds since the in-flight plan started.
    public var elapsed: Double

    public init(plan: TransitionPlan, elapsed: Double) {
        self.plan = plan
        self.elapsed = elapsed
    }
}

extension GeometryTokens {
    /// The geometry tokens a theme holds (`geometry.*`), defaults for any it lacks.
    public init(theme: Theme) {
        self.init()
        for entry in Self.tokenPaths {
            if let value = theme.dimension(at: entry.path) ?? theme.number(at: entry.path) {
                self[keyPath: entry.keyPath] = value
            }
        }
    }
}

/// The motion tokens every plan reads, resolved from the theme once per settings value.
struct PlannerMotion: Hashable, Sendable {
    /// `transition.fadeCurve` over `transition.fade`: slots and rows that come and go.
    var fade: Curve
    /// `transition.content`: updated slots and a chrome that follows its content.
    var content: Curve?
    /// `transition.convert` / `transition.peek`: the chrome.
    var convert: Curve?
    var peek: Curve?
    /// `motion.sharedElement.convert` / `.peek`: shared elements.
    var elementConvert: Curve?
    var elementPeek: Curve?
    var hideDip: Double
    var stagger: Double
    var headerDelay: Double
    var maxDuration: Double

    init(theme: Theme) {
        let duration = theme.duration(at: "transition.fade") ?? 0.18
        let points = theme.cubicBezier(at: "transition.fadeCurve") ?? .ease
        fade = (try? Curve.bezier(points, duration: duration, source: "transition.fade, transition.fadeCurve"))
            ?? Curve.none(source: "transition.fade")
        content = theme.curve(at: "transition.content")
        convert = theme.curve(at: "transition.convert")
        peek = theme.curve(at: "transition.peek")
        elementConvert = theme.curve(at: "motion.sharedElement.convert")
        elementPeek = theme.curve(at: "motion.sharedElement.peek")
        hideDip = theme.duration(at: "motion.hideDip") ?? 0.12
        stagger = theme.duration(at: "motion.stagger") ?? 0.03
        headerDelay = theme.duration(at: "motion.header.delay") ?? 0.08
        maxDuration = theme.duration(at: "motion.maxDuration") ?? 2
    }
}
