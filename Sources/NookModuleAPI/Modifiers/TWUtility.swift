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
    /// `delay-*` that parse) or plain names, which may be named rules (`rules.named.<name>`,
    /// the module's or the theme's), in order; layout, group, shared and variant classes are
    /// dropped. A plain name no rule defines earns `unknown-class` from the broker.
    static func animationOnly(_ classes: String) -> String {
        classes.split(whereSeparator: { $0.isWhitespace }).filter { token in
            let list = ClassList(parsing: String(token))
            return (!list.animation.isEmpty && list.diagnostics.isEmpty) || ClassList.isPlainName(String(token))
        }.joined(separator: " ")
    }
}
