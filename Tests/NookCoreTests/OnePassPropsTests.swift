import NookTestSupport
import Testing

@testable import NookCore

/// The one-pass prop reading (`NodePropsReader.readInOnePass`, the validator's default) must
/// mean exactly what the ordered reading (`NodePropsReader.read`) means: the same typed views,
/// the same diagnostics in the same order, and for bad input the same error (path, code, text).
@Suite struct OnePassPropsTests {
    /// Small limits, so string, name and params limits are reached by short random values.
    static let limits = ViewLimits(maxNodes: 12, maxDepth: 4, maxStringBytes: 24, maxNameBytes: 10, maxParamEntries: 6, maxParamDepth: 2)

    @Test func namedFindsEveryKeyAndNothingElse() {
        for key in PropKey.allCases { #expect(PropKey.named(key.name) == key, "\(key)") }
        var names = ["", "i", "idd", "Id", "ID", "widtH", "width ", "sharef", "min_lengtj", "max_heigh", "group/", "stylf",
                     "shapf", "starx", "actiom", "anchoz", "symbok", "spacinh", "staggeq", "mix_width", "moo_height",
                     "propertiez", "é", "wïdth", "monospaced_digitz", "animation_valuf"]
        for key in PropKey.allCases {
            var bytes = Array(key.name.utf8)
            for index in bytes.indices {
                let saved = bytes[index]
                bytes[index] = saved == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                names.append(String(decoding: bytes, as: UTF8.self))
                bytes[index] = saved
            }
            names.append(key.name + "_")
            names.append(String(key.name.dropLast()))
        }
        for name in names { #expect(PropKey.named(name) == PropKey.byName[name], "\(name)") }
    }

    @Test func kindNamedMatchesRawValue() {
        var names = ["", "txt", "texts", "Text", "vstacks", "stack", "progres", "progresx", "spaces", "imagf", "viex", "astack"]
        names += NodeKind.allCases.map(\.rawValue)
        for name in names { #expect(ViewValidator.kind(named: name) == NodeKind(rawValue: name), "\(name)") }
    }

    @Test func readsMatchesKnownMask() {
        for kind in NodeKind.allCases {
            for key in PropKey.allCases {
                #expect(NodePropsReader.reads(kind, key) == (ViewValidator.knownMask(kind) & key.bit != 0), "\(kind) \(key)")
            }
        }
    }

    @Test func randomPropsReadAlike() {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_0016)
        var rng = SeededGenerator(seed: seed)
        var accepted = 0
        var refused = 0
        for round in 0..<20_000 {
            let raw = Self.randomNode(&rng, depth: 1)
            let slot = round % 7 == 0 ? "" : "expanded"
            for limits in [Self.limits, .standard] {
                let onePass = ViewValidator(limits: limits)
                var ordered = ViewValidator(limits: limits)
                ordered.readsInOnePass = false
                // The tree and its diagnostics, as one comparable value.
                let a = Result { () throws(ViewValidationError) in try onePass.validate(raw, slot: slot) }.map { [$0.root: $0.diagnostics] }
                let b = Result { () throws(ViewValidationError) in try ordered.validate(raw, slot: slot) }.map { [$0.root: $0.diagnostics] }
                #expect(a == b, "\(SeededGenerator.replay(seed)) round \(round): \(raw)")
                if case .success = b { accepted += 1 } else { refused += 1 }
            }
        }
        // Both outcomes are exercised in numbers.
        #expect(accepted > 2_000)
        #expect(refused > 2_000)
    }

    // MARK: Random input

    static let keyNames: [String] = PropKey.allCases.map(\.name) + ["zeta", "alpha", "Width", "colour", "", "group/x", "é"]

    static func randomNode(_ rng: inout SeededGenerator, depth: Int) -> RawNode {
        let kinds = NodeKind.allCases.map(\.rawValue) + ["txt"]
        let kind = Int.random(in: 0..<40, using: &rng) == 0 ? kinds.last! : NodeKind.allCases.randomElement(using: &rng)!.rawValue
        var props: [String: PropValue] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            let name = keyNames.randomElement(using: &rng)!
            props[name] = value(for: name, &rng)
        }
        var children: [RawNode] = []
        if depth < 3, Int.random(in: 0..<4, using: &rng) == 0 {
            for _ in 0..<Int.random(in: 1...2, using: &rng) { children.append(randomNode(&rng, depth: depth + 1)) }
        }
        return RawNode(kind: kind, props: props, children: children)
    }

    /// Mostly a value of the key's own type (good or just out of range), sometimes anything.
    static func value(for name: String, _ rng: inout SeededGenerator) -> PropValue {
        if Int.random(in: 0..<6, using: &rng) == 0 { return anyValue(&rng, depth: 0) }
        switch PropKey.byName[name] {
        case .width, .height, .minWidth, .maxWidth, .minHeight, .maxHeight, .spacing, .fontSize, .cornerRadius, .minLength,
            .opacity, .value:
            return number(&rng)
        case .padding:
            let count = Int.random(in: 0..<8, using: &rng) == 0 ? 3 : 4
            return .structure((0..<count).map { _ in number(&rng) })
        case .classes, .text, .uri, .animationValue, .actionLabel, .fontWeight, .symbol, .name:
            return .string(text(&rng))
        case .group:
            return .string(["", "group/", "group/card", "card", "bad id", "group/bad id", "g.1-2_3"].randomElement(using: &rng)!)
        case .identity, .action, .id, .namespace:
            return .string(["", "a", "cover", "bad id", "é", "x.y-z_1", String(repeating: "a", count: 129)].randomElement(using: &rng)!)
        case .role, .alignment, .shape, .style, .properties, .anchor:
            let words = ["header", "leading", "center", "rect", "rounded_rect", "linear", "circular", "resize", "scale", "frame",
                         "size", "top_leading", "bogus", "", "Header", String(repeating: "c", count: 11)]
            return .string(words.randomElement(using: &rng)!)
        case .color:
            return .string(["#ffffff", "#FFAA00", "#12345678", "#12345", "ffffff", "#gggggg", "#", "", "#aabbccd"].randomElement(using: &rng)!)
        case .stagger, .animate, .monospacedDigits, .isSource:
            return .bool(Bool.random(using: &rng))
        case .lineLimit:
            return [PropValue.int(1), .int(0), .int(100), .int(101), .uint(3), .double(2), .double(2.5), .int(-1)].randomElement(using: &rng)!
        case .timerEnd, .start, .end:
            return [PropValue.int(1_800_000_000_000_000), .int(-1), .uint(0), .uint(.max), .int(.max), .double(3), .int(0),
                    .int(7_258_118_400_000_001)].randomElement(using: &rng)!
        case .groupState:
            var states: [String: PropValue] = [:]
            for _ in 0..<Int.random(in: 0...7, using: &rng) {
                states[["focus", "active", "disabled", "bad name", "x"].randomElement(using: &rng)!] =
                    Int.random(in: 0..<8, using: &rng) == 0 ? .int(1) : .bool(Bool.random(using: &rng))
            }
            return .dictionary(states)
        case .shared:
            var entries: [String: PropValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let key = ["id", "id", "style", "namespace", "properties", "anchor", "is_source", "width", "zeta"].randomElement(using: &rng)!
                entries[key] = value(for: key, &rng)
            }
            return .dictionary(entries)
        case .params:
            return .dictionary(dictionary(&rng, depth: 1))
        case nil:
            return anyValue(&rng, depth: 0)
        }
    }

    static func number(_ rng: inout SeededGenerator) -> PropValue {
        [PropValue.double(0), .double(20), .double(0.5), .double(1), .double(1.5), .double(-1), .double(.nan), .double(.infinity),
         .double(-.infinity), .double(1e300), .double(1_000_000), .double(1_000_001), .int(12), .int(-3), .uint(7), .uint(.max),
         .double(-0.0), .string("12"), .bool(true)].randomElement(using: &rng)!
    }

    static func text(_ rng: inout SeededGenerator) -> String {
        ["", "track 1", "♪", "sf-play", "music.note", String(repeating: "é", count: 6), String(repeating: "a", count: 25),
         "0123456789", "01234567890"].randomElement(using: &rng)!
    }

    static func dictionary(_ rng: inout SeededGenerator, depth: Int) -> [String: PropValue] {
        var entries: [String: PropValue] = [:]
        for index in 0..<Int.random(in: 0...4, using: &rng) {
            let key = Int.random(in: 0..<10, using: &rng) == 0 ? "a-very-long-key" : "k\(index)"
            entries[key] = anyValue(&rng, depth: depth)
        }
        return entries
    }

    static func anyValue(_ rng: inout SeededGenerator, depth: Int) -> PropValue {
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: return .bool(Bool.random(using: &rng))
        case 1: return .int(Int64.random(in: -5...5, using: &rng))
        case 2: return .uint(UInt64.random(in: 0...5, using: &rng))
        case 3: return number(&rng)
        case 4: return .string(text(&rng))
        case 5: return depth < 3 ? .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in anyValue(&rng, depth: depth + 1) }) : .int(1)
        case 6: return depth < 3 ? .structure((0..<Int.random(in: 0...3, using: &rng)).map { _ in anyValue(&rng, depth: depth + 1) }) : .int(2)
        case 7: return depth < 3 ? .dictionary(dictionary(&rng, depth: depth + 1)) : .int(3)
        case 8: return .node(RawNode(kind: "text", props: ["text": .string("x")]))
        case 9: return .double(.nan)
        default: return .string("#abcdef")
        }
    }
}
