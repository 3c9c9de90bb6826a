import NookCore
/// A class utility written as a Swift value, for `.tw(...)` and `.twAnimation(...)`.
///
/// ```swift
/// card.twAnimation(.animation(.smooth), .duration(0.4), value: expanded)
/// card.tw(.padding(2), .classes("bg-indigo-500"))
/// ```
public enum TWUtility: Hashable, Sendable {
    /// `animate-<name>`: a preset from `rules.animations` (`.smooth`, `.snappy`, `.bouncy`,
    /// `.linear`, `.custom("wobble")`).
    case animation(AnimationPreset)
    /// `duration-<ms>`, from seconds.
    case duration(Double)
    /// `delay-<ms>`, from seconds.
    case delay(Double)
    /// `p-<n>` (class units: 4 pt each).
    case padding(Double)
    /// `w-<n>` (class units).
    case width(Double)
    /// `h-<n>` (class units).
    case height(Double)
    /// Any class string, as written.
    case classes(String)

    /// The class text this utility stands for.
    public var className: String {
        switch self {
        case .animation(let preset): "animate-" + preset.name
        case .duration(let seconds): "duration-" + Self.milliseconds(seconds)
        case .delay(let seconds): "delay-" + Self.milliseconds(seconds)
        case .padding(let units): "p-" + Self.units(units)
        case .width(let units): "w-" + Self.units(units)
        case .height(let units): "h-" + Self.units(units)
        case .classes(let text): text
        }
    }

    /// True for the utilities `.twAnimation` keeps: presets and timing.
    public var isAnimation: Bool {
        switch self {
        case .animation, .duration, .delay: true
        case .padding, .width, .height: false
        case .classes(let text): !text.isEmpty && TWClasses.animationOnly(text) == text
        }
    }

    /// `0.4` -> `400`; a fraction of a millisecond -> `[0.4005s]`.
    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        if ms >= 0, ms == ms.rounded(), ms < 1e12 { return String(Int64(ms)) }
        return "[" + String(describing: seconds) + "s]"
    }

    /// `20` -> `20`, `0.5` -> `0.5`.
    static func units(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int64(value)) : String(describing: value)
    }
}

/// Class-string helpers shared by the `.tw` family.
enum TWClasses {
    /// The tokens of `classes` that are animation classes (`animate-*`, `duration-*`,
    /// `delay-*` that parse) or plain names outside Tailwind's utility families, which may be
    /// named rules (`rules.named.<name>`, the module's or the theme's), in order; layout,
    /// styling utilities, group, shared and variant classes are dropped. A plain name no rule defines earns `unknown-class` from the broker.
    static func animationOnly(_ classes: String) -> String {
        classes.split(whereSeparator: { $0.isWhitespace }).filter { token in
            let list = ClassList(parsing: String(token))
            return (!list.animation.isEmpty && list.diagnostics.isEmpty) || isRuleName(String(token))
        }.joined(separator: " ")
    }

    /// Tailwind's styling families: `bg-red-500` is a utility, never a rule name.
    static let utilityPrefixes: [String] = [
        "bg-", "text-", "font-", "opacity-", "rounded", "border", "ring", "shadow", "scale-", "rotate-", "translate-",
        "leading-", "tracking-", "fill-", "stroke-", "outline", "blur", "from-", "via-", "to-",
    ]
    /// Spacing and position families, utilities only with a number, `[...]`, `px` or `auto`
    /// after them (`my-2`), so a rule may still be called `my-card`.
    static let measurePrefixes: [String] = ["m-", "mx-", "my-", "mt-", "mb-", "ms-", "me-", "ml-", "mr-", "z-", "inset-", "top-", "left-", "right-", "bottom-"]

    static func isMeasureUtility(_ token: String) -> Bool {
        guard let prefix = measurePrefixes.first(where: { token.hasPrefix($0) }) else { return false }
        let rest = token.dropFirst(prefix.count)
        return rest.first.map { $0.isNumber || $0 == "[" } ?? false || rest == "px" || rest == "auto"
    }

    /// A plain name (`ClassList.isPlainName`) outside Tailwind's utility families: possibly a
    /// named rule, which `.twAnimation` keeps so the broker can expand it or say it is unknown.
    static func isRuleName(_ token: String) -> Bool {
        ClassList.isPlainName(token) && !utilityPrefixes.contains { token.hasPrefix($0) } && !isMeasureUtility(token)
    }
}
