import Foundation
import Testing
@testable import NookCore

/// `ContractKeys`, the table of every key and its D-Bus type that docs/contract.md shows, held
/// to what `ViewValidator` accepts: the same keys per node kind, and each key read as the type
/// the table gives (a value of that type passes, another is refused naming that type).
@Suite struct ContractKeysTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A valid value of each view prop, of the type the contract documents.
    static let samples: [String: PropValue] = [
        "width": .double(10), "height": .double(10), "min_width": .double(1), "max_width": .double(100),
        "min_height": .double(1), "max_height": .double(100), "padding": .structure(Array(repeating: .double(2), count: 4)),
        "opacity": .double(0.5), "classes": .string("p-2"), "group": .string("card"), "group_state": .dictionary(["focus": .bool(true)]),
        "identity": .string("row"), "role": .string("header"), "animation_value": .string("1"), "action": .string("pause"), "action_label": .string("Pause"),
        "shared": .dictionary(["id": .string("icon")]), "animate": .bool(false), "spacing": .double(4), "alignment": .string("leading"),
        "stagger": .bool(true), "text": .string("hi"), "font_size": .double(13), "font_weight": .string("bold"),
        "monospaced_digits": .bool(true), "timer_end": .int(1_700_000_000_000_000), "line_limit": .int(2), "color": .string("#ffffff"),
        "symbol": .string("timer"), "uri": .string("file:///tmp/x.png"), "shape": .string("circle"), "corner_radius": .double(4),
        "value": .double(0.5), "start": .int(1_700_000_000_000_000), "end": .int(1_700_000_060_000_000), "style": .string("linear"),
        "min_length": .double(4), "name": .string("CoverArt"), "params": .dictionary(["n": .double(1)]),
    ]
    static let sharedSamples: [String: PropValue] = [
        "id": .string("icon"), "style": .string("scale"), "namespace": .string("ns"), "properties": .string("size"),
        "anchor": .string("leading"), "is_source": .bool(false),
    ]

    static func typeName(_ value: PropValue) -> String {
        if case .structure(let fields) = value, fields.count == 4 { return "(dddd)" }
        // An `i` key takes any D-Bus integer; the decoder gives each as a 64-bit value.
        if case .int(let number) = value, Int32(exactly: number) != nil, number < 1_000_000 { return "i" }
        return value.typeName
    }

    /// A value of another type than `type`.
    static func wrong(for type: ContractKey.WireType) -> PropValue { type == .bool ? .string("x") : .bool(true) }

    @Test func viewPropsAreExactlyWhatTheValidatorReadsPerKind() {
        for kind in NodeKind.allCases {
            let documented = Set(ContractKeys.all.filter { ContractKeys.viewProp($0.key, on: kind) == $0 }.map(\.key))
            let read = ViewValidator.commonKeys.union(ViewValidator.kindKeys[kind] ?? [])
            #expect(documented == read, "\(kind): only documented \(documented.subtracting(read)), only read \(read.subtracting(documented))")
        }
        let sharedRows = Set(ContractKeys.all.filter { $0.place == .shared }.map(\.key))
        #expect(sharedRows == ViewValidator.sharedKeys)
    }

    @Test func eachViewPropIsReadAsItsDocumentedType() throws {
        var failures: [String] = []
        for kind in NodeKind.allCases {
            for key in ViewValidator.commonKeys.union(ViewValidator.kindKeys[kind] ?? []).sorted() {
                guard let row = ContractKeys.viewProp(key, on: kind), let sample = Self.samples[key] else {
                    failures.append("\(kind).\(key): no row or sample")
                    continue
                }
                if Self.typeName(sample) != row.type.rawValue { failures.append("\(kind).\(key): sample is not \(row.type.rawValue)") }
                do {
                    let view = try ViewValidator().validate(RawNode(kind: kind.rawValue, props: [key: sample]), slot: "expanded")
                    if view.diagnostics.contains(where: { $0.code == .unknownKey }) { failures.append("\(kind).\(key): unknown to the validator") }
                } catch {
                    failures.append("\(kind).\(key): a \(row.type.rawValue) is refused: \(error)")
                }
                do {
                    _ = try ViewValidator().validate(RawNode(kind: kind.rawValue, props: [key: Self.wrong(for: row.type)]), slot: "expanded")
                    failures.append("\(kind).\(key): another type is accepted")
                } catch {
                    if error.code != .wrongType || !error.message.contains("expected type \(row.type.rawValue)") {
                        failures.append("\(kind).\(key): refused as \(error), not as a \(row.type.rawValue)")
                    }
                }
            }
        }
        for row in ContractKeys.all where row.place == .shared {
            let sample = try #require(Self.sharedSamples[row.key])
            let good = RawNode(kind: "text", props: ["shared": .dictionary(["id": .string("icon")].merging([row.key: sample]) { $1 })])
            let bad = RawNode(kind: "text", props: ["shared": .dictionary(["id": .string("icon")].merging([row.key: Self.wrong(for: row.type)]) { $1 })])
            if Self.typeName(sample) != row.type.rawValue { failures.append("shared.\(row.key): sample is not \(row.type.rawValue)") }
            if (try? ViewValidator().validate(good, slot: "expanded"))?.diagnostics.isEmpty != true { failures.append("shared.\(row.key): refused") }
            do {
                _ = try ViewValidator().validate(bad, slot: "expanded")
                failures.append("shared.\(row.key): another type is accepted")
            } catch {
                if !error.message.contains("expected type \(row.type.rawValue)") { failures.append("shared.\(row.key): \(error)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test func docsShowTheTable() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/contract.md"), encoding: .utf8)
        // When this fails, paste the table below into docs/contract.md's "Keys and types" section.
        #expect(text.contains(ContractKeys.markdownTable), "docs/contract.md lacks the current table:\n\(ContractKeys.markdownTable)")
    }
}
