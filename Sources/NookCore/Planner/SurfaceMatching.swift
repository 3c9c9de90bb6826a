/// Rules 3, 4, 7, 8, 9, 10 and 12: which nook-marked elements move between surfaces.
///
/// Contract
/// - Only nook-namespace marks take part (rule 3): group and caller namespaces stay inside
///   their slot. Capsules (rule 12) and the companion window (rule 20) never take part.
/// - Each element answers to the keys `ModuleMarks` gives it (rule 8); two elements meet
///   when their key sets meet. A key pairs an element only when it has exactly one source
///   on each side (rule 9); followers are ignored; a key with two sources on one side does
///   not move, and only that key.
/// - When an element could pair through several keys, the pair through a key that is
///   canonical for both wins, then canonical for one, then any; ties by key, so the result
///   is deterministic.
/// - A pair never lies inside one slot that stays on screen (that is a content transition),
///   and never joins two different activities (rule 7).
/// - While the pill peeks, a compact copy whose key is also in the peek shows in the peek
///   only (rule 10): it is left out of matching and the pair moving through the peek hides it.
struct SurfaceMatching {
    struct Candidate {
        var element: SharedElement
        var slotIndex: Int
        var keys: AnswerKeys
        var owner: SlotOwner
        var identity: SlotIdentity
        var staying: Bool

        /// An info diagnostic about this candidate's element, naming its path, owner and id.
        func diagnostic(_ code: DiagnosticCode, _ message: String) -> Diagnostic {
            Diagnostic(code, .info, message, path: element.path, module: owner.module, activity: owner.activity ?? "", id: element.id)
        }
    }

    struct Pair {
        var old: Candidate
        var new: Candidate
        var key: String
    }

    struct Side {
        var sources: [Candidate] = []
        var followers: [Candidate] = []
        /// Marked nodes in capsules and companion windows: `(candidate, isCompanion)`.
        var excluded: [(candidate: Candidate, companion: Bool)] = []
        /// Compact copies left out while the pill peeks, because the peek shows the element (rule 10).
        var peekOnly: [Candidate] = []
        var suffixing: [Diagnostic] = []
        /// Every module with a view in the scene, and every id marked in it: what makes a lone
        /// mark on the other side worth a `no-counterpart` (the module could have meant a pair).
        /// Listed, not hashed: most plans never ask (`Reach` hashes them when one does).
        var modules: [String] = []
        var markedIds: [String] = []
    }

    var pairs: [Pair] = []
    var diagnostics: [Diagnostic] = []
    var old = Side()
    var new = Side()

    /// - Parameter staying: for each slot index of each scene, whether the slot is on both sides.
    init(before: PlannerScene, after: PlannerScene, staying: (old: [Bool], new: [Bool]), marks: inout MarkReader) {
        old = Self.collect(before, staying: staying.old, marks: &marks)
        new = Self.collect(after, staying: staying.new, marks: &marks)
        pairUp()
        explainExcluded()
    }

    // MARK: Collecting

    static func collect(_ scene: PlannerScene, staying: [Bool], marks: inout MarkReader) -> Side {
        var side = Side()
        // Reserved once: growing each list by appends reallocated it two or three times.
        side.modules.reserveCapacity(scene.slots.count)
        var marked = 0
        for index in scene.slots.indices {
            side.modules.append(scene.slots[index].owner.module)
            marked += scene.slots[index].namespaces.elements.count
        }
        if marked > 0 {
            side.markedIds.reserveCapacity(marked)
            side.sources.reserveCapacity(marked)
        }
        for index in scene.slots.indices where !scene.slots[index].namespaces.elements.isEmpty {
            let name = scene.slots[index].name
            let isCapsule = name == .minimal
            let isCompanion = scene.presentation == .companion && name == .home
            let owner = scene.slots[index].owner
            let identity = scene.slots[index].identity
            let elements = scene.slots[index].namespaces.elements
            // By index: a `for element in` copy of each element (retaining its strings) was
            // made before the filter left out the group-scoped ones.
            for elementIndex in elements.indices where elements[elementIndex].key.namespace == .nook || isCompanion {
                let element = elements[elementIndex]
                side.markedIds.append(element.id)
                let keys = answerKeys(element, owner: owner, marks: &marks)
                if let diagnostic = keys.diagnostic, !side.suffixing.contains(diagnostic) { side.suffixing.append(diagnostic) }
                let candidate = Candidate(
                    element: element, slotIndex: index, keys: keys, owner: owner, identity: identity,
                    staying: staying[index])
                if isCapsule || isCompanion {
                    side.excluded.append((candidate, isCompanion))
                } else if element.isSource {
                    side.sources.append(candidate)
                } else {
                    side.followers.append(candidate)
                }
            }
        }
        if scene.presentation == .peek {
            // Rule 10: a compact copy that the peek also shows is drawn in the peek only.
            let peekKeys = side.sources.filter { scene.slots[$0.slotIndex].name == .peek }.map(\.keys)
            let shownInPeek = { (candidate: Candidate) -> Bool in
                let name = scene.slots[candidate.slotIndex].name
                return (name == .compactLeading || name == .compactTrailing) && peekKeys.contains { $0.meets(candidate.keys) }
            }
            side.peekOnly = side.sources.filter(shownInPeek)
            side.sources.removeAll(where: shownInPeek)
        }
        return side
    }

    /// True when no element can move between the two scenes and matching has nothing to say
    /// beyond the answer keys' suffixing diagnostics: the same presentation, every slot on
    /// both sides (`staying`) at the same position with the same owner and the same marked
    /// elements (those matching collects, alike in key, id and role: all its candidates'
    /// answer keys and kinds follow from them). Each key's sources are then the same slots on both sides, so a key with one
    /// source a side pairs an element with itself in a slot that stays (a content
    /// transition), and a key with more moves nothing and, everything staying, says nothing;
    /// no unpaired, peek-only, follower or excluded candidate comes or goes. A content update
    /// of a slot without marks is this case; `suffixing(_:marks:)` then gives the diagnostics.
    static func nothingMoves(before: PlannerScene, after: PlannerScene, staying: (old: [Bool], new: [Bool])) -> Bool {
        guard before.presentation == after.presentation, before.slots.count == after.slots.count,
              !staying.old.contains(false), !staying.new.contains(false) else { return false }
        // For a handful of marks: with many, comparing them costs what matching them does.
        var marks = 0
        for index in before.slots.indices { marks += before.slots[index].namespaces.elements.count }
        guard marks <= 64 else { return false }
        for index in before.slots.indices {
            let (old, new) = (before.slots[index], after.slots[index])
            guard old.laidOut.slot == new.laidOut.slot, old.laidOut.owner == new.laidOut.owner, old.owner == new.owner,
                  sameCandidates(old.namespaces.elements, new.namespaces.elements,
                                 companion: before.presentation == .companion && old.name == .home) else { return false }
        }
        return true
    }

    /// Whether `collect` takes the same elements from both lists (nook marks, or all in a
    /// companion window), alike in key, id and role; read in place (a shared element is a
    /// large value), and at once when both lists are one array.
    private static func sameCandidates(_ a: [SharedElement], _ b: [SharedElement], companion: Bool) -> Bool {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                if a.count == b.count, a.baseAddress == b.baseAddress { return true }
                var (i, j) = (0, 0)
                while true {
                    while i < a.count, !(companion || a[i].key.namespace == .nook) { i += 1 }
                    while j < b.count, !(companion || b[j].key.namespace == .nook) { j += 1 }
                    guard i < a.count, j < b.count else { return i == a.count && j == b.count }
                    guard a[i].key == b[j].key, a[i].id == b[j].id, a[i].role == b[j].role else { return false }
                    i += 1
                    j += 1
                }
            }
        }
    }

    /// A side's `suffixing` as `collect` gathers it, without the candidates.
    static func suffixing(_ scene: PlannerScene, marks: inout MarkReader) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for index in scene.slots.indices where !scene.slots[index].namespaces.elements.isEmpty {
            let isCompanion = scene.presentation == .companion && scene.slots[index].name == .home
            let owner = scene.slots[index].owner
            let elements = scene.slots[index].namespaces.elements
            for elementIndex in elements.indices where elements[elementIndex].key.namespace == .nook || isCompanion {
                let keys = answerKeys(elements[elementIndex], owner: owner, marks: &marks)
                if let diagnostic = keys.diagnostic, !out.contains(diagnostic) { out.append(diagnostic) }
            }
        }
        return out
    }

    /// Rule 10 for the whole peek: the paths of the pill copies `scene` draws in the peek only
    /// (empty unless the pill peeks). Held in every plan's destination, whatever its cause.
    static func shownInPeek(_ scene: PlannerScene, marks: inout MarkReader) -> Set<String> {
        guard scene.presentation == .peek else { return [] }
        let side = collect(scene, staying: [Bool](repeating: false, count: scene.slots.count), marks: &marks)
        return Set(side.peekOnly.map(\.element.path))
    }

    static func answerKeys(_ element: SharedElement, owner: SlotOwner, marks: inout MarkReader) -> AnswerKeys {
        guard element.key.namespace == .nook else { return AnswerKeys(keys: [element.key.key]) }
        let moduleMarks = marks.marks(of: owner.module)
        if let activity = owner.activity { return moduleMarks.answerKeys(activity: activity, id: element.id) }
        return moduleMarks.answerKeys(moduleLevelId: element.id)
    }

    // MARK: Pairing

    mutating func pairUp() {
        // A scene holds a handful of sources: each side's (key, source) entries sorted by key
        // and merged, rather than dictionaries and sets of strings.
        let oldEntries = Self.keyEntries(old.sources)
        let newEntries = Self.keyEntries(new.sources)

        var options: [(rank: Int, key: String, old: Int, new: Int)] = []
        var blocked: [String] = []
        var named: [String] = []
        var o = 0
        var n = 0
        while o < oldEntries.count, n < newEntries.count {
            let key = oldEntries[o].key
            if key < newEntries[n].key { o = Self.end(of: o, in: oldEntries); continue }
            if newEntries[n].key < key { n = Self.end(of: n, in: newEntries); continue }
            let oldEnd = Self.end(of: o, in: oldEntries)
            let newEnd = Self.end(of: n, in: newEntries)
            if oldEnd - o == 1, newEnd - n == 1 {
                // One source a side, the usual case: read from the entries (no index arrays).
                let (oldSource, newSource) = (oldEntries[o].source, newEntries[n].source)
                o = oldEnd
                n = newEnd
                let rank = (old.sources[oldSource].keys.canonical == key ? 0 : 1) + (new.sources[newSource].keys.canonical == key ? 0 : 1)
                options.append((rank, key, oldSource, newSource))
                continue
            }
            let olds = oldEntries[o..<oldEnd].map(\.source)
            let news = newEntries[n..<newEnd].map(\.source)
            o = oldEnd
            n = newEnd
            // Rule 9: only a key that would move matters; one whose elements all stay put is quiet.
            let involved = olds.contains { !old.sources[$0].staying } || news.contains { !new.sources[$0].staying }
            guard involved else { continue }
            blocked.append(key)
            for (label, indices, side) in [("previous", olds, old), ("new", news, new)] where indices.count > 1 {
                let paths = indices.map { side.sources[$0].element.path }
                for path in paths where !named.contains(path) { named.append(path) }
                let first = side.sources[indices[0]]
                diagnostics.append(
                    Diagnostic(
                        .duplicateSource, .warning,
                        "\(key) has \(indices.count) sources in the \(label) scene (\(paths.joined(separator: ", "))); "
                            + "that key does not move. Mark the extra copies as followers: " + DuplicateSourceAdvice.text,
                        path: paths[0], module: first.owner.module, activity: first.owner.activity ?? "", id: first.element.id))
            }
        }
        options.sort { ($0.rank, $0.key, $0.old, $0.new) < ($1.rank, $1.key, $1.old, $1.new) }
        var usedOld = [Bool](repeating: false, count: old.sources.count)
        var usedNew = [Bool](repeating: false, count: new.sources.count)
        for option in options where !usedOld[option.old] && !usedNew[option.new] {
            let o = old.sources[option.old]
            let n = new.sources[option.new]
            // Both ends in one slot that stays: a content transition handles it.
            if o.identity == n.identity { continue }
            if let a = o.owner.activity, let b = n.owner.activity, a != b || o.owner.module != n.owner.module {
                diagnostics.append(
                    Diagnostic(
                        .otherActivity, .info,
                        "\(option.key) at \(o.element.path) and \(n.element.path) belong to different activities (\(o.owner), \(n.owner)); an activity's pill only moves into its own views",
                        path: n.element.path, module: n.owner.module, activity: n.owner.activity ?? "", id: n.element.id))
                continue
            }
            usedOld[option.old] = true
            usedNew[option.new] = true
            pairs.append(Pair(old: o, new: n, key: option.key))
        }
        pairs.sort { ($0.new.slotIndex, $0.new.element.path) < ($1.new.slotIndex, $1.new.element.path) }

        // Everything marked in a slot that comes or goes, and not paired, is explained.
        Self.explainUnpaired(old, used: usedOld, label: "previous", other: new, blocked: blocked, named: named, into: &diagnostics)
        Self.explainUnpaired(new, used: usedNew, label: "new", other: old, blocked: blocked, named: named, into: &diagnostics)
    }

    /// Says why each source of `side` (the `label` scene) that comes or goes stayed unpaired,
    /// and why its peek-only copies and followers do not move. The sides are passed, not
    /// gathered into an array literal (which copied each side's arrays), and the diagnostics
    /// are the only part of `self` written, so reading the sides copies nothing.
    private static func explainUnpaired(_ side: Side, used: [Bool], label: String, other otherScene: Side, blocked: [String],
                                        named: [String], into diagnostics: inout [Diagnostic]) {
        var reach: Reach?
        for (index, candidate) in side.sources.enumerated() where !used[index] && !candidate.staying {
            if let key = candidate.keys.keys.first(where: blocked.contains) {
                // The warning above names the duplicated copies; the lone copy facing them is told here.
                if !named.contains(candidate.element.path) {
                    diagnostics.append(candidate.diagnostic(.duplicateSource, "\(key) at \(candidate.element.path) does not move: the key has more than one source on the other side"))
                }
                continue
            }
            let other = label == "previous" ? "new" : "previous"
            // Only where a pair could have been meant: the other scene shows the same module,
            // or marks the same id. An activity arriving in (or leaving) a scene that has
            // nothing of its module has no counterpart by nature, and says nothing.
            let otherSide = reach ?? Reach(otherScene)
            reach = otherSide
            guard otherSide.modules.contains(candidate.owner.module) || otherSide.markedIds.contains(candidate.element.id) else { continue }
            diagnostics.append(candidate.diagnostic(.noCounterpart, "\(candidate.keys.canonical) at \(candidate.element.path) has no counterpart in the \(other) scene; it \(label == "previous" ? "leaves" : "arrives") with its slot"))
        }
        for candidate in side.peekOnly where !candidate.staying {
            diagnostics.append(candidate.diagnostic(.shownInPeek, "\(candidate.keys.canonical) at \(candidate.element.path) shows in the peek only while the pill peeks; the peek's copy moves for it"))
        }
        for candidate in side.followers where !candidate.staying {
            diagnostics.append(candidate.diagnostic(.follower, "\(candidate.keys.canonical) at \(candidate.element.path) is a follower; only a key's source moves"))
        }
    }

    /// Every (answer key, source index) of `sources`, sorted by key, then source.
    static func keyEntries(_ sources: [Candidate]) -> [(key: String, source: Int)] {
        var entries: [(key: String, source: Int)] = []
        // Counted and reserved first: growing by appends reallocated the list two or three times.
        var count = 0
        for index in sources.indices { count += sources[index].keys.keys.count }
        entries.reserveCapacity(count)
        for index in sources.indices {
            for key in sources[index].keys.keys { entries.append((key, index)) }
        }
        // Stable by construction: ties are ordered by source index, as they were appended.
        entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.source < $1.source }
        return entries
    }

    /// The index just past the run of entries from `start` that share its key.
    static func end(of start: Int, in entries: [(key: String, source: Int)]) -> Int {
        var end = start + 1
        while end < entries.count, entries[end].key == entries[start].key { end += 1 }
        return end
    }

    /// A side's modules and marked ids, hashed once for the candidates that ask.
    struct Reach {
        var modules: Set<String>
        var markedIds: Set<String>

        init(_ side: Side) {
            modules = Set(side.modules)
            markedIds = Set(side.markedIds)
        }
    }

    /// Rules 12 and 20: say why marks in capsules and companions stayed out.
    mutating func explainExcluded() {
        Self.explainExcluded(old, other: new, into: &diagnostics)
        Self.explainExcluded(new, other: old, into: &diagnostics)
    }

    /// `explainExcluded()` for one side (the sides are passed, not copied into an array).
    private static func explainExcluded(_ side: Side, other: Side, into diagnostics: inout [Diagnostic]) {
        do {
            for (candidate, companion) in side.excluded where !candidate.staying {
                if companion {
                    diagnostics.append(candidate.diagnostic(.companion, "\(candidate.element.key.key) at \(candidate.element.path) is in a companion window, where marks do nothing"))
                } else {
                    let met = other.sources.contains { $0.keys.meets(candidate.keys) }
                    diagnostics.append(
                        Diagnostic(
                            .capsuleNotShared, .info,
                            "\(candidate.keys.canonical) at \(candidate.element.path) is in a capsule; capsules never share elements, so it "
                                + (met ? "cross-fades with its counterpart" : "comes and goes with its capsule"),
                            path: candidate.element.path, module: candidate.owner.module, activity: candidate.owner.activity ?? "", id: candidate.element.id))
                }
            }
        }
    }
}
