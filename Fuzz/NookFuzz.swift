// libFuzzer targets for NookCore's parsers, built by `make fuzz` with
// `swiftc -sanitize=fuzzer,address` together with NookCore's sources (so the parsers are
// instrumented for coverage, not only this file). One binary; the target is chosen by
// NOOK_FUZZ_TARGET: `classes` (the class-string parser), `tokens` (the token JSON parser and
// the theme merge), `view` (fuzzer bytes decoded into a RawNode tree, then the ViewValidator),
// `curves` (fuzzer bytes as curve parameters and a sample rate: every curve the Curve API
// accepts samples to finite values, no more than Curve.maxSampleCount of them), `display`
// (fuzzer bytes as a display's keys: whether or not NumberDomain accepts them, a plan on that
// display has finite rects). Tests/NookCoreTests/FuzzTests.swift runs the same oracles, bounded.

import Glibc

/// Reads the fuzzer's bytes as a little program that builds a RawNode: a byte-driven
/// decoder, so every input is some tree (possibly a wrong one) and mutations stay meaningful.
struct ByteReader {
    var bytes: UnsafeRawBufferPointer
    var offset = 0
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }
    var atEnd: Bool { offset >= bytes.count }
    mutating func string() -> String {
        let count = Int(byte() % 24)
        var out: [UInt8] = []
        for _ in 0..<count where !atEnd { out.append(byte()) }
        return String(decoding: out, as: UTF8.self)
    }
    mutating func double() -> Double {
        var raw: UInt64 = 0
        for index in 0..<8 { raw |= UInt64(byte()) << (8 * UInt64(index)) }
        return Double(bitPattern: raw)
    }
}

private let kinds = ["vstack", "hstack", "zstack", "text", "image", "shape", "progress", "spacer", "view", "x"]
private let keys = ["text", "width", "height", "min_width", "max_height", "padding", "opacity", "classes", "group", "group_state",
                    "shared", "identity", "role", "symbol", "uri", "shape", "color", "value", "start", "end", "name", "params",
                    "spacing", "alignment", "timer_end", "id", "style", "namespace", "anchor", "is_source", "focus", "zz"]

private func value(_ reader: inout ByteReader, depth: Int) -> PropValue {
    switch reader.byte() % (depth > 6 ? 6 : 10) {
    case 0: return .bool(reader.byte() & 1 == 1)
    case 1: return .int(Int64(truncatingIfNeeded: reader.double().bitPattern))
    case 2: return .uint(UInt64(reader.byte()))
    case 3: return .double(reader.double())
    case 4, 5: return .string(reader.string())
    case 6: return .array((0..<Int(reader.byte() % 5)).map { _ in value(&reader, depth: depth + 1) })
    case 7: return .structure((0..<Int(reader.byte() % 5)).map { _ in value(&reader, depth: depth + 1) })
    case 8:
        var dict: [String: PropValue] = [:]
        for _ in 0..<Int(reader.byte() % 5) { dict[keys[Int(reader.byte()) % keys.count]] = value(&reader, depth: depth + 1) }
        return .dictionary(dict)
    default: return .node(node(&reader, depth: depth + 1))
    }
}

private func node(_ reader: inout ByteReader, depth: Int) -> RawNode {
    let kind = reader.byte() < 240 ? kinds[Int(reader.byte()) % kinds.count] : reader.string()
    var props: [String: PropValue] = [:]
    for _ in 0..<Int(reader.byte() % 6) where !reader.atEnd { props[keys[Int(reader.byte()) % keys.count]] = value(&reader, depth: depth) }
    var children: [RawNode] = []
    if depth < 40 {
        for _ in 0..<Int(reader.byte() % 4) where !reader.atEnd { children.append(node(&reader, depth: depth + 1)) }
    }
    return RawNode(kind: kind, props: props, children: children)
}

/// Every number a curve puts on the wire is finite, and its samples are bounded.
func checkCurve(_ reader: inout ByteReader) {
    let kind = reader.byte() % 3
    let (a, b, delay, y1, y2, velocity, rate) = (reader.double(), reader.double(), reader.double(), reader.double(),
                                                  reader.double(), reader.double(), reader.double())
    var curve: Curve?
    switch kind {
    case 0: curve = try? Curve.spring(response: a, dampingFraction: b, delay: delay)
    case 1: curve = try? Curve.linear(duration: a, delay: delay)
    default: curve = (try? CubicBezier(0.5, y1, 0.5, y2)).flatMap { try? Curve.bezier($0, duration: a, delay: delay) }
    }
    guard var accepted = curve else { return }
    if let moving = try? accepted.withInitialVelocity(velocity) { accepted = moving }
    for (key, value) in accepted.wireDictionary(sampleRate: rate) {
        if case .double(let number) = value { precondition(number.isFinite, "curve \(key) = \(number) for \(accepted)") }
        if case .array(let samples) = value {
            precondition(samples.count <= Curve.maxSampleCount + 1, "\(samples.count) samples for \(accepted) at \(rate) Hz")
            for case .double(let sample) in samples { precondition(sample.isFinite, "a sample of \(accepted) is \(sample)") }
        }
    }
}

/// A plan on any display, accepted by NumberDomain or not, has finite rects.
func checkDisplay(_ reader: inout ByteReader) {
    let display = DisplayInfo(width: reader.double(), height: reader.double(), notchWidth: reader.double(),
                              notchHeight: reader.double(), scale: reader.double())
    let settings = PlannerSettings(display: display)
    let cover = ViewNode(kind: .view, props: { var p = NodeProps(); p.width = 40; p.height = 40; p.shared = SharedMark(id: "cover"); return p }(), children: [])
    var content = SceneContent(compactLeading: OwnedView(owner: "m/a", view: cover), compactTrailing: OwnedView(owner: "m/a", view: cover))
    let pill = PlannerScene(presentation: .pill, content: content, settings: settings)
    content.expanded = .activity(OwnedView(owner: "m/a", view: ViewNode(kind: .vstack, props: NodeProps(), children: [cover])))
    let open = PlannerScene(presentation: .expanded, content: content, settings: settings)
    let plan = TransitionPlanner.plan(from: pill, to: open, action: PlanAction(cause: .open, serial: 1), settings: settings, inFlight: nil, marks: nil)
    var rects = [plan.chrome.fromRect, plan.chrome.toRect] + plan.scene.nodes.map(\.rect)
    rects += plan.elements.flatMap { [$0.fromRect, $0.toRect] }
    for rect in rects {
        precondition([rect.x, rect.y, rect.width, rect.height].allSatisfy(\.isFinite), "rect \(rect) on \(display)")
    }
}

private let target: String = getenv("NOOK_FUZZ_TARGET").map { String(cString: $0) } ?? "classes"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    switch target {
    case "tokens":
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? JSONValue.parse(text)
        _ = try? Theme.builtIn.merging(json: text)
    case "curves":
        var reader = ByteReader(bytes: bytes)
        checkCurve(&reader)
    case "display":
        var reader = ByteReader(bytes: bytes)
        checkDisplay(&reader)
    case "view":
        var reader = ByteReader(bytes: bytes)
        let raw = node(&reader, depth: 0)
        _ = try? ViewValidator().validate(raw, slot: "expanded")
        _ = try? ViewValidator(limits: ViewLimits(maxNodes: 32, maxDepth: 6)).validate(raw, slot: "compact_leading")
    default:
        let text = String(decoding: bytes, as: UTF8.self)
        let first = ClassList(parsing: text, namedRules: ["card": "p-2 rounded-lg"], path: "fuzz")
        precondition(first == ClassList(parsing: text, namedRules: ["card": "p-2 rounded-lg"], path: "fuzz"), "class parsing is not deterministic")
    }
    return 0
}
