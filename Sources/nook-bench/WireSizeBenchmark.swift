import NookBus
import NookCore

/// Issue 21's wire-size figure: the bytes of a typical content update's plan as D-Bus
/// marshals it (the signal body), with the whole scene (contract v1) and as a `scene_delta`
/// (contract 1.1, with its compact form: "Smaller plans"), in the same run. The update: the 8 x 64 typical scene, expanded, where the
/// first row's progress advances and its title changes (same width).
func runWireSizeBenchmark() -> [Figure] {
    print("wire size: a typical content update's Plan (8 activities x 64 nodes, expanded; the first row's progress advances and its title changes)")
    let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2))
    let before = PlannerBenchmarkScenes.activities(8).expanded
    var after = before
    if case .activity(var owned)? = after.expanded {
        owned.view = WireSize.advancingFirstRow(owned.view)
        after.expanded = .activity(owned)
    }
    let shown = PlannerScene(presentation: .expanded, content: before, settings: settings)
    let subscribe = TransitionPlanner.plan(
        from: PlannerScene(presentation: .hidden, content: SceneContent(), settings: settings), to: shown,
        action: PlanAction(cause: .subscribe, serial: 1), settings: settings)
    let update = TransitionPlanner.plan(
        from: subscribe.scene, to: PlannerScene(presentation: .expanded, content: after, settings: settings),
        action: PlanAction(cause: .activityUpdated, serial: 2), settings: settings, inFlight: nil)
    let whole = WireSize.bytes(WireCodec.vardict(update.wireDictionary()))
    let delta = WireSize.bytes(WireCodec.vardict(update.wireDictionary(base: (subscribe.serial, subscribe.scene), compact: true)))
    let plainDelta = WireSize.bytes(WireCodec.vardict(update.wireDictionary(base: (subscribe.serial, subscribe.scene))))
    let share = Double(delta) / Double(whole)
    // Where the bytes go: each top-level key of the delta plan, largest first.
    let parts = update.wireDictionary(base: (subscribe.serial, subscribe.scene), compact: true)
        .map { (key: $0.key, bytes: WireSize.bytes(WireCodec.vardict([$0.key: $0.value]))) }
        .sorted { $0.bytes > $1.bytes }.prefix(5)
    print("  largest keys of the delta plan: " + parts.map { "\($0.key) \($0.bytes) B" }.joined(separator: ", "))
    print("  whole scene \(whole) bytes (\(update.scene.nodes.count) nodes); scene_delta alone \(plainDelta) bytes "
          + "(\(fmt(Double(plainDelta) / Double(whole) * 100))%); with compact_plans \(delta) bytes: \(fmt(share * 100))% "
          + "(goal at most 10%: \(share <= 0.1 ? "met" : "NOT met"))")
    return [
        Figure(name: "plan bytes, content update, whole scene (v1)", value: Double(whole), unit: "B", goal: "baseline", ratio: nil, met: nil),
        Figure(name: "plan bytes, content update, scene_delta alone", value: Double(plainDelta), unit: "B", goal: "none (informational)",
               ratio: Double(plainDelta) / Double(whole), met: nil),
        Figure(name: "plan bytes, content update, scene_delta + compact_plans", value: Double(delta), unit: "B", goal: "ratio to whole scene <= 0.1",
               ratio: share, met: share <= 0.1),
    ]
}

enum WireSize {
    /// The typical panel with its first row's progress on and its title changed.
    static func advancingFirstRow(_ view: ViewNode) -> ViewNode {
        var view = view
        switch view.kind {
        case .progress:
            view.props.value = 0.5
        case .text where view.props.text?.hasPrefix("Track") == true:
            // The next track's number: same width, as a title update usually keeps the row's.
            view.props.text = "Track 8"
        case .hstack where view.children.count == 3 && view.children[2].kind == .progress:
            // A row: icon, titles, progress.
            view.children[1] = advancingFirstRow(view.children[1])
            view.children[2] = advancingFirstRow(view.children[2])
        default:
            if !view.children.isEmpty { view.children[0] = advancingFirstRow(view.children[0]) }
        }
        return view
    }

    /// The D-Bus marshalled size of `value` as a message body starting at offset 0.
    static func bytes(_ value: DBusValue) -> Int {
        var offset = 0
        marshal(value, at: &offset)
        return offset
    }

    private static func align(_ offset: inout Int, _ boundary: Int) {
        offset = (offset + boundary - 1) / boundary * boundary
    }

    private static func alignment(_ value: DBusValue) -> Int {
        switch value {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .bool, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    private static func alignment(of signature: Signature) -> Int {
        switch signature.rawValue.first {
        case "y", "g", "v": 1
        case "n", "q": 2
        case "x", "t", "d", "(", "{": 8
        default: 4
        }
    }

    private static func marshal(_ value: DBusValue, at offset: inout Int) {
        align(&offset, alignment(value))
        switch value {
        case .byte: offset += 1
        case .int16, .uint16: offset += 2
        case .bool, .int32, .uint32, .unixFD: offset += 4
        case .int64, .uint64, .double: offset += 8
        case .string(let text): offset += 4 + text.utf8.count + 1
        case .objectPath(let path): offset += 4 + path.rawValue.utf8.count + 1
        case .signature(let signature): offset += 1 + signature.rawValue.utf8.count + 1
        case .variant(let inner):
            offset += 1 + inner.signature.rawValue.utf8.count + 1
            marshal(inner, at: &offset)
        case .structure(let fields):
            for field in fields { marshal(field, at: &offset) }
        case .array(let element, let items):
            offset += 4
            align(&offset, alignment(of: element))
            for item in items { marshal(item, at: &offset) }
        case .dictionary(_, _, let entries):
            // An array of dict entries: the length, then 8-aligned entries.
            offset += 4
            align(&offset, 8)
            for entry in entries {
                align(&offset, 8)
                marshal(entry.key, at: &offset)
                marshal(entry.value, at: &offset)
            }
        }
    }
}
