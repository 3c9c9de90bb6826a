/// SPEC rule 8: which nook keys an element answers to, given the module's live activities.
///
/// Activities of one module often show the same kind of thing (two timers, both marking
/// `timer`). Inside activity `A`'s views an id `X` therefore always answers to `<module>/X.A`,
/// and to the plain `<module>/X` only while no other live activity of the module marks `X`.
/// An activity that already wrote the suffix (`X.A` in activity `A`) is read as `X`, so it is
/// never suffixed twice. Module-level views (home, widget, module compact content) answer to
/// `<module>/<id>` exactly as written: a home showing two timers marks `timer.A` and
/// `timer.B`, which meet each activity's suffixed key whether the activity wrote `timer` or
/// `timer.A`; a home marking plain `timer` meets the activity that still holds the plain key.
///
/// Matching treats an element's answer keys as a set: two elements match when their sets
/// intersect. The first key is the element's canonical key (what the plan reports).
public struct ModuleMarks: Hashable, Sendable {
    public var module: String
    /// For each live activity, the nook-namespace ids marked anywhere in its views, as written.
    public var activities: [String: Set<String>]

    public init(module: String, activities: [String: Set<String>]) {
        self.module = module
        self.activities = activities
    }

    /// The keys an element marked `id` in a view of `activity` answers to.
    /// - Returns: `<module>/X.A` first, then `<module>/X` when `X` is unique to `activity`,
    ///   plus an `id-suffixed` info diagnostic when it is not.
    public func answerKeys(activity: String, id: String) -> AnswerKeys {
        let base = Self.baseId(id, activity: activity)
        // Written in one piece each (a `+` chain allocates per step); the plain key is the
        // suffixed one's head.
        let plain = KeyText.join(module, UInt8(ascii: "/"), base)
        let suffixed = KeyText.join(plain, UInt8(ascii: "."), activity)
        let marksBase = { (other: String) in other != activity && activities[other]!.contains { Self.baseId($0, activity: other) == base } }
        // Usually no other activity marks it: asked first, without gathering and sorting.
        guard activities.keys.contains(where: marksBase) else {
            return AnswerKeys(keys: [suffixed, plain])
        }
        let others = activities.keys.filter(marksBase).sorted()
        let message =
            "activities \(([activity] + others).sorted().joined(separator: ", ")) all mark \"\(base)\", "
            + "so in \(activity) it answers only to \(suffixed); module-level views should mark \"\(base).\(activity)\""
        return AnswerKeys(
            keys: [suffixed], diagnostic: Diagnostic(.idSuffixed, .info, message, module: module, activity: activity, id: base))
    }

    /// The keys an element marked `id` in a module-level view answers to: `<module>/<id>`.
    public func answerKeys(moduleLevelId id: String) -> AnswerKeys {
        AnswerKeys(keys: [KeyText.join(module, UInt8(ascii: "/"), id)])
    }

    /// Every `id-suffixed` diagnostic the current activities cause, one per (activity, id),
    /// sorted by activity then id.
    public var suffixingDiagnostics: [Diagnostic] {
        var out: [Diagnostic] = []
        for activity in activities.keys.sorted() {
            let bases = Set(activities[activity]!.map { Self.baseId($0, activity: activity) })
            for base in bases.sorted() {
                if let diagnostic = answerKeys(activity: activity, id: base).diagnostic { out.append(diagnostic) }
            }
        }
        return out
    }

    /// `X` for `X.A` in activity `A`, else the id unchanged.
    static func baseId(_ id: String, activity: String) -> String {
        // ASCII (as every valid id and activity is): the bytes answer, without building the suffix.
        let (idBytes, activityBytes) = (id.utf8, activity.utf8)
        if idBytes.allSatisfy({ $0 < 0x80 }), activityBytes.allSatisfy({ $0 < 0x80 }) {
            guard idBytes.count > activityBytes.count + 1 else { return id }
            let dot = idBytes.index(idBytes.endIndex, offsetBy: -(activityBytes.count + 1))
            guard idBytes[dot] == UInt8(ascii: "."), idBytes[idBytes.index(after: dot)...].elementsEqual(activityBytes) else { return id }
            return String(id[..<dot])
        }
        let suffix = "." + activity
        guard id.hasSuffix(suffix), id.count > suffix.count else { return id }
        return String(id.dropLast(suffix.count))
    }
}

/// The nook keys one element answers to; the first is its canonical key.
public struct AnswerKeys: Hashable, Sendable {
    public var keys: [String]
    /// `id-suffixed` when the plain key was withheld.
    public var diagnostic: Diagnostic?

    public init(keys: [String], diagnostic: Diagnostic? = nil) {
        self.keys = keys
        self.diagnostic = diagnostic
    }

    public var canonical: String { keys[0] }

    /// True when the two elements share a key.
    public func meets(_ other: AnswerKeys) -> Bool { keys.contains { other.keys.contains($0) } }
}
