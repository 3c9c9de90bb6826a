import Testing
@testable import NookCore

private func node(_ kind: String, _ props: [String: PropValue] = [:], _ children: [RawNode] = []) -> RawNode {
    RawNode(kind: kind, props: props, children: children)
}

private func refusal(_ raw: RawNode, slot: String = "expanded", limits: ViewLimits = .standard) -> ViewValidationError? {
    do {
        _ = try ViewValidator(limits: limits).validate(raw, slot: slot)
        return nil
    } catch {
        return error
    }
}

@Test func validTreeBecomesTypedNodes() throws {
    let raw = node(
        "vstack", ["spacing": .double(4), "alignment": .string("leading"), "classes": .string("group/hero p-2")],
        [
            node("text", ["text": .string("3:14"), "font_size": .double(13), "timer_end": .int(1_700_000_000_000_000)]),
            node("shape", ["shape": .string("rounded_rect"), "corner_radius": .double(6), "color": .string("#1E90FFcc")]),
            node(
                "image",
                ["symbol": .string("media-playback-start"), "shared": .dictionary(["id": .string("cover"), "style": .string("scale")])]),
        ])
    let view = try ViewValidator().validate(raw, slot: "expanded")
    #expect(view.diagnostics.isEmpty)
    #expect(view.root.kind == .vstack)
    #expect(view.root.props.alignment == .leading)
    #expect(view.root.children[0].props.timerEnd == 1_700_000_000_000_000)
    #expect(view.root.children[1].props.shape == .roundedRect)
    let mark = try #require(view.root.children[2].props.shared)
    #expect(mark == SharedMark(id: "cover", style: .scale))
}

@Test func idWithSpaceIsRefusedNamingPath() {
    let raw = node("hstack", [:], [node("text"), node("text"), node("vstack", [:], [node("text"), node("text"), node("image", ["shared": .dictionary(["id": .string("my cover")])])])])
    let error = refusal(node("vstack", [:], [raw]))
    #expect(error?.path == "expanded/0/2/2.shared.id")
    #expect(error?.code == .invalidId)
    #expect(error?.message.contains("a space") == true)
}

/// Each row: a tree, the path validation must name, the rule it must cite, and words the
/// message must contain.
@Test func refusalsNameThePathTheRuleAndTheProblem() {
    let cases: [(String, RawNode, String, ViewValidationError.Code, String)] = [
        ("unknown kind", node("vstack", [:], [node("button")]), "expanded/0", .unknownKind, "button"),
        ("double sent as string", node("text", ["font_size": .string("12")]), "expanded.font_size", .wrongType, "expected type d, found s"),
        ("NaN width", node("text", ["width": .double(.nan)]), "expanded.width", .invalidSize, "finite"),
        ("infinite height", node("text", ["height": .double(.infinity)]), "expanded.height", .invalidSize, "finite"),
        ("negative padding", node("text", ["padding": .structure([.double(1), .double(-2), .double(0), .double(0)])]), "expanded.padding", .invalidSize, "-2"),
        ("padding of three", node("text", ["padding": .structure([.double(1), .double(2), .double(3)])]), "expanded.padding", .wrongType, "(dddd)"),
        ("negative spacing", node("hstack", ["spacing": .double(-1)]), "expanded.spacing", .invalidSize, "not negative"),
        ("negative corner radius", node("shape", ["corner_radius": .double(-4)]), "expanded.corner_radius", .invalidSize, "-4"),
        ("NaN min length", node("spacer", ["min_length": .double(.nan)]), "expanded.min_length", .invalidSize, "NaN is not a finite number"),
        ("negative max width", node("text", ["max_width": .double(-0.5)]), "expanded.max_width", .invalidSize, "-0.5"),
        ("min over max", node("text", ["min_width": .double(50), "max_width": .double(20)]), "expanded.min_width", .invalidSize, "exceeds"),
        ("font size NaN", node("text", ["font_size": .double(-.nan)]), "expanded.font_size", .invalidSize, "finite"),
        ("opacity above one", node("text", ["opacity": .double(1.5)]), "expanded.opacity", .invalidValue, "0...1"),
        ("bad alignment", node("vstack", ["alignment": .string("middle")]), "expanded.alignment", .invalidValue, "leading"),
        ("bad colour", node("shape", ["color": .string("red")]), "expanded.color", .invalidValue, "#RRGGBB"),
        ("shared without id", node("text", ["shared": .dictionary(["style": .string("scale")])]), "expanded.shared.id", .missingKey, "id"),
        ("shared id too long", node("text", ["shared": .dictionary(["id": .string(String(repeating: "a", count: 129))])]), "expanded.shared.id", .invalidId, "at most 128"),
        ("empty shared id", node("text", ["shared": .dictionary(["id": .string("")])]), "expanded.shared.id", .invalidId, "empty"),
        ("shared id with dollar", node("text", ["shared": .dictionary(["id": .string("co$ver")])]), "expanded.shared.id", .invalidId, "'$'"),
        ("bad shared style", node("text", ["shared": .dictionary(["id": .string("a"), "style": .string("zoom")])]), "expanded.shared.style", .invalidValue, "resize"),
        ("bad namespace", node("text", ["shared": .dictionary(["id": .string("a"), "namespace": .string("my ns")])]), "expanded.shared.namespace", .invalidId, "namespace"),
        ("is_source as string", node("text", ["shared": .dictionary(["id": .string("a"), "is_source": .string("no")])]), "expanded.shared.is_source", .wrongType, "expected type b"),
        ("group name with slash", node("vstack", ["group": .string("he/ro")]), "expanded.group", .invalidGroupName, "'/'"),
        ("group state not bool", node("vstack", ["group_state": .dictionary(["focus": .int(1)])]), "expanded.group_state.focus", .wrongType, "found x"),
        ("identity with colon", node("vstack", ["identity": .string("a:b")]), "expanded.identity", .invalidId, "':'"),
        ("children under text", node("text", [:], [node("text")]), "expanded", .unexpectedChildren, "text"),
        ("long text", node("text", ["text": .string(String(repeating: "x", count: 5000))]), "expanded.text", .stringTooLong, "5000"),
        ("params carrying a node", node("view", ["params": .dictionary(["inner": .node(node("text"))])]), "expanded.params.inner", .wrongType, "view nodes"),
        ("timer end as double", node("text", ["timer_end": .double(1)]), "expanded.timer_end", .wrongType, "expected type x, found d"),
    ]
    var failures: [String] = []
    for (name, raw, path, code, words) in cases {
        guard let error = refusal(raw) else {
            failures.append("\(name): accepted")
            continue
        }
        if error.path != path || error.code != code || !error.message.contains(words) {
            failures.append("\(name): got \(error)")
        }
    }
    #expect(failures.isEmpty, "\(failures)")
}

@Test func treeDeeperThanLimitIsRefusedAtFirstTooDeepNode() {
    var raw = node("text")
    for _ in 0..<32 { raw = node("vstack", [:], [raw]) }  // 33 levels
    let error = refusal(raw, slot: "home")
    #expect(error?.code == .tooDeep)
    #expect(error?.path == "home" + String(repeating: "/0", count: 32))
    // Exactly at the limit is fine.
    #expect(refusal(raw.children[0], slot: "home") == nil)
}

@Test func treeWithMoreNodesThanLimitIsRefused() {
    let limits = ViewLimits(maxNodes: 10)
    let nine = node("vstack", [:], Array(repeating: node("text"), count: 9))
    #expect(refusal(nine, limits: limits) == nil)
    let eleven = node("vstack", [:], Array(repeating: node("text"), count: 10))
    let error = refusal(eleven, limits: limits)
    #expect(error?.code == .tooManyNodes)
    #expect(error?.path == "expanded/9")
    #expect(error?.code.isLimit == true)
}

@Test func unknownKeysAreIgnoredWithInfoDiagnostic() throws {
    let raw = node(
        "text",
        ["text": .string("hi"), "blur": .double(3), "spacing": .double(2), "shared": .dictionary(["id": .string("t"), "glow": .bool(true)])])
    let view = try ViewValidator().validate(raw, slot: "peek")
    #expect(view.root.props.spacing == nil)
    let paths = view.diagnostics.map(\.path)
    #expect(paths == ["peek.blur", "peek.spacing", "peek.shared.glow"])
    #expect(view.diagnostics.allSatisfy { $0.code == .unknownKey && $0.severity == .info })
}

@Test func groupPropAcceptsNameOrGroupSlashName() throws {
    let plain = try ViewValidator().validate(node("vstack", ["group": .string("hero")]), slot: "home")
    let prefixed = try ViewValidator().validate(node("vstack", ["group": .string("group/hero")]), slot: "home")
    let anonymous = try ViewValidator().validate(node("vstack", ["group": .string("")]), slot: "home")
    #expect(plain.root.props.group == "hero")
    #expect(prefixed.root.props.group == "hero")
    #expect(anonymous.root.props.group == "")
}

@Test func encodingThenValidatingRoundTrips() throws {
    var text = NodeProps()
    text.text = "12:00"
    text.fontSize = 14
    text.fontWeight = "semibold"
    text.monospacedDigits = true
    text.timerEnd = 42
    text.shared = SharedMark(id: "timer", style: .scale, namespace: "hero", properties: .position, anchor: .leading, isSource: false)
    text.padding = EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
    var stack = NodeProps()
    stack.spacing = 8
    stack.alignment = .center
    stack.stagger = true
    stack.group = "hero"
    stack.groupState = ["focus": true]
    stack.identity = "card"
    stack.role = .header
    stack.animationValue = "expanded"
    stack.animate = false
    stack.classes = "group/hero shared-[x]"
    stack.minWidth = 1
    stack.maxWidth = 100
    var progress = NodeProps()
    progress.start = 10
    progress.end = 20
    progress.progressStyle = .circular
    progress.value = 0.5
    var custom = NodeProps()
    custom.name = "CoverArt"
    custom.params = ["track": .string("x"), "size": .structure([.double(1), .int(2)])]
    var shape = NodeProps()
    shape.shape = .capsule
    shape.color = "#000000"
    shape.cornerRadius = 3
    shape.opacity = 0.25
    var spacer = NodeProps()
    spacer.minLength = 4
    var image = NodeProps()
    image.uri = "file:///a.png"
    image.symbol = "folder"
    let tree = ViewNode(
        kind: .hstack, props: stack,
        children: [
            ViewNode(kind: .text, props: text), ViewNode(kind: .progress, props: progress),
            ViewNode(kind: .view, props: custom, children: [ViewNode(kind: .spacer, props: spacer)]),
            ViewNode(kind: .shape, props: shape), ViewNode(kind: .image, props: image),
        ])
    let back = try ViewValidator().validate(tree.rawNode, slot: "expanded")
    #expect(back.root == tree)
    #expect(back.diagnostics.isEmpty)
}

@Test func validationNeverCrashesOnHostileValues() {
    // A sweep of every prop key with every kind of value: each must be accepted or refused
    // with a path inside the node, never trap.
    let values: [PropValue] = [
        .bool(true), .int(-1), .uint(7), .double(.nan), .double(-1), .double(1e308), .string(""),
        .string(String(repeating: "é", count: 3000)), .array([]), .dictionary([:]), .structure([.double(1)]), .node(node("text")),
    ]
    let keys = Array(ViewValidator.commonKeys) + ViewValidator.kindKeys.values.flatMap { $0 }
    var badPaths: [String] = []
    for kind in NodeKind.allCases {
        for key in keys {
            for value in values {
                if let error = refusal(node(kind.rawValue, [key: value])), !error.path.hasPrefix("expanded") {
                    badPaths.append(error.path)
                }
            }
        }
    }
    #expect(badPaths.isEmpty)
}

@Test func textAndImagesTakeAColourAndABadOneIsRefusedByPath() throws {
    let raw = node("hstack", [:], [
        node("text", ["text": .string("Focus"), "color": .string("#FF6F61")]),
        node("image", ["symbol": .string("timer"), "color": .string("#34C759CC")]),
    ])
    let view = try ViewValidator().validate(raw, slot: "expanded")
    #expect(view.diagnostics.isEmpty, "\(view.diagnostics)")
    #expect(view.root.children.map(\.props.color) == ["#FF6F61", "#34C759CC"])
    let bad = refusal(node("text", ["text": .string("x"), "color": .string("orange")]))
    #expect(bad?.path == "expanded.color", "\(String(describing: bad))")
}

@Test func symbolsNookDoesNotMapAreNamedAndFreedesktopNamesPass() throws {
    let view = try ViewValidator().validate(node("hstack", [:], [
        node("image", ["symbol": .string("play.fill")]),
        node("image", ["symbol": .string("media-playback-start-symbolic")]),
        node("image", ["symbol": .string("tortoise.fill")]),
    ]), slot: "expanded")
    #expect(view.diagnostics.map(\.code) == [.unknownSymbol])
    #expect(view.diagnostics.first?.path == "expanded/2.symbol")
    #expect(view.diagnostics.first?.message.contains("tortoise.fill") == true)
    #expect(SymbolNames.iconName(for: "play.fill") == "media-playback-start-symbolic")
}

/// Contract 1.1: clients in dynamic languages send whole numbers as integers; a `d` prop takes
/// any integer type and an `x` prop takes `t`, `i` and `u`. Anything else still names the path
/// and both types.
@Test func integersAreTakenWhereTheContractSaysDoubleOrInt64() throws {
    let view = try ViewValidator().validate(node("vstack", ["spacing": .int(4), "padding": .structure([.int(1), .uint(2), .double(3), .int(4)])], [
        node("text", ["text": .string("x"), "font_size": .int(13), "timer_end": .uint(1_800_000_000_000_000)]),
        node("progress", ["start": .int(1_700_000_000_000_000), "end": .uint(1_700_000_100_000_000)]),
    ]), slot: "expanded")
    #expect(view.root.props.spacing == 4)
    #expect(view.root.props.padding == EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
    #expect(view.root.children[0].props.fontSize == 13)
    #expect(view.root.children[0].props.timerEnd == 1_800_000_000_000_000)
    #expect(view.root.children[1].props.end == 1_700_000_100_000_000)
    let text = refusal(node("text", ["text": .string("x"), "font_size": .string("13")]))
    #expect(text?.path == "expanded.font_size" && text?.message.contains("expected type d, found s") == true, "\(String(describing: text))")
    let huge = refusal(node("text", ["text": .string("x"), "timer_end": .uint(.max)]))
    #expect(huge?.path == "expanded.timer_end", "\(String(describing: huge))")
}

/// The bit table the validator reads props through holds exactly the contract's keys, so a
/// key cannot be skipped for lack of a bit, nor two keys share one.
@Suite struct PropKeyTests {
    @Test func everyContractKeyHasItsOwnBitAndNoOtherKeyDoes() {
        let contract = ViewValidator.commonKeys.union(ViewValidator.kindKeys.values.flatMap { $0 }).union(ViewValidator.sharedKeys)
        #expect(Set(PropKey.allCases.map(\.name)) == contract)
        #expect(PropKey.allCases.count == contract.count)
        #expect(PropKey.allCases.count <= 64)
        for kind in NodeKind.allCases {
            let allowed = ViewValidator.commonKeys.union(ViewValidator.kindKeys[kind] ?? [])
            #expect(ViewValidator.knownMask(kind) == PropKeySet.mask(allowed), "\(kind)")
        }
    }

    @Test func unknownKeysAreListedSortedWhetherOrNotTheContractKnowsThem() {
        // `font_size` is a contract key, but not a shape's; `zeta` and `alpha` are no key at all.
        let present = PropKeySet(["zeta": .bool(true), "font_size": .double(3), "alpha": .bool(true), "width": .double(2)])
        #expect(present.keys(notIn: ViewValidator.knownMask(.shape)) == ["alpha", "font_size", "zeta"])
        #expect(present.contains(.width) && present.contains(.fontSize) && !present.contains(.height))
    }
}
