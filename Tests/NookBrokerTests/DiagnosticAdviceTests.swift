import Foundation
import NookBroker
@testable import NookCore
import NookModuleAPI
import Testing

/// Issue 45, part 3: every diagnostic a module hears when it publishes a view can be acted on
/// from the SDK it is sent to. For each code, a view written with NookModuleAPI earns it, the
/// same view written as the module guide's "what to do" says does not, and the guide's row for
/// the code names what the fix uses.
@Suite struct DiagnosticAdviceTests {
    struct AdviceCase: CustomTestStringConvertible, Sendable {
        let code: DiagnosticCode
        /// What the guide's row says to do, as the fix below writes it.
        let advice: String
        let broken: @Sendable () -> EncodedView
        let fixed: @Sendable () -> EncodedView
        var testDescription: String { code.rawValue }
    }

    static let cases: [AdviceCase] = [
        AdviceCase(code: .unknownClass, advice: "did you mean", broken: { Text("a").tw("text-blu-400") }, fixed: { Text("a").tw("text-blue-400") }),
        AdviceCase(
            code: .unknownVariant, advice: "variants",
            broken: { VStack { Text("a").tw("group-hoverr:opacity-50") }.tw("group") },
            fixed: { VStack { Text("a").tw("group-hover:opacity-50") }.tw("group") }),
        AdviceCase(
            code: .missingGroup, advice: "on an ancestor",
            broken: { VStack { Text("a").tw("group-hover/card:opacity-50") }._encode() },
            fixed: { VStack { Text("a").tw("group-hover/card:opacity-50") }.tw("group/card") }),
        AdviceCase(
            code: .invalidId, advice: "[A-Za-z0-9._-]",
            broken: { VStack { Text("a").tw("shared-[co$ver]") }.tw("group") },
            fixed: { VStack { Text("a").tw("shared-[cover]") }.tw("group") }),
        AdviceCase(code: .invalidGroupName, advice: "rename the group", broken: { Text("a").tw("group/ca$rd") }, fixed: { Text("a").tw("group/card") }),
        AdviceCase(code: .invalidTiming, advice: "a value the theme allows", broken: { Text("a").tw("duration-[fast]") }, fixed: { Text("a").tw("duration-400") }),
        AdviceCase(code: .conflictingClasses, advice: "keep one", broken: { Text("a").tw("group/a group/b") }, fixed: { Text("a").tw("group/b") }),
        AdviceCase(
            code: .duplicateGroupIdentity, advice: "another name",
            broken: { VStack { Text("a").group("row").identity("x"); Text("b").group("row").identity("x") }._encode() },
            fixed: { VStack { Text("a").group("row").identity("x"); Text("b").group("row").identity("y") }._encode() }),
        AdviceCase(
            code: .unknownSymbol, advice: "symbol table", broken: { Image(systemName: "not.a.symbol.at.all")._encode() },
            fixed: { Image(systemName: "hammer")._encode() }),
    ]

    /// The guide's table row for `code`: `| \`code\` | when | what to do |`.
    static func guideRow(_ code: DiagnosticCode) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/module-guide.md"), encoding: .utf8)
        return guide.split(separator: "\n").first { $0.hasPrefix("| `\(code.rawValue)` |") }.map(String.init) ?? ""
    }

    /// What the registry tells the module when it starts activity `id` showing `view` expanded.
    static func published(_ view: EncodedView, as id: String, in registry: inout Registry) throws -> [Diagnostic] {
        var activity = NookLiveActivity(id: id, accessibilityLabel: "walk") { Image(systemName: "hammer") } compactTrailing: {
            Text("1")
        } minimal: { Image(systemName: "hammer") }
        activity.setExpanded { view }
        let actions = try registry.startActivity(id, spec: activity.startSpec(sequence: 1), caller: ":1.7", now: .zero)
        return actions.flatMap { action -> [Diagnostic] in
            if case .diagnostics(_, _, let diagnostics) = action { return diagnostics }
            return []
        }
    }

    @Test(arguments: cases)
    func theAdviceCanBeFollowedFromTheSDK(_ advice: AdviceCase) throws {
        var registry = Registry()
        _ = try registry.register(module: "walk", info: [:], caller: ":1.7", now: .zero)
        let broken = try Self.published(advice.broken(), as: "broken", in: &registry)
        #expect(broken.contains { $0.code == advice.code }, "the broken view did not earn \(advice.code.rawValue): \(broken)")
        let fixed = try Self.published(advice.fixed(), as: "fixed", in: &registry)
        #expect(!fixed.contains { $0.code == advice.code }, "following the advice still earns \(advice.code.rawValue): \(fixed)")
        let row = try Self.guideRow(advice.code)
        #expect(row.contains(advice.advice), "docs/module-guide.md's row for \(advice.code.rawValue) does not say \"\(advice.advice)\": \(row)")
    }

    /// `duplicate-source` comes from the planner: its advice names the SDK's modifiers, and the
    /// one it names marks the copy a follower on the wire (what the planner reads).
    @Test func duplicateSourcesAdviceNamesTheSDKsWay() throws {
        let advice = DuplicateSourceAdvice.text
        #expect(advice.contains(".nookSharedElement(id, isSource: false)") && advice.contains("shared-follower"))
        let follower = Image(systemName: "hammer").nookSharedElement("icon", isSource: false).viewNode
        #expect(follower.props.shared?.isSource == false)
        #expect(try Self.guideRow(.duplicateSource).contains("isSource: false") || Self.guidePlannerParagraphNamesFollowers())
    }

    static func guidePlannerParagraphNamesFollowers() throws -> Bool {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/module-guide.md"), encoding: .utf8)
        return guide.contains("`duplicate-source` (two sources for one id: mark the extra copies\n`isSource: false`)")
    }

    /// Every code a module can hear has a row in the guide's table.
    @Test(arguments: [
        "unknown-key", "invalid-id", "invalid-group-name", "missing-group", "unknown-class", "unknown-variant", "unknown-symbol",
        "unknown-animation", "invalid-timing", "conflicting-classes", "named-rule-cycle", "duplicate-group-identity", "id-suffixed",
        "stale-update", "activity-stale", "activity-dismissed", "module-restored", "module-evicted", "unknown-action",
    ])
    func everyCodeHasItsRowInTheGuide(_ code: String) throws {
        #expect(try !Self.guideRow(DiagnosticCode(rawValue: code)).isEmpty, "docs/module-guide.md has no row for \(code)")
    }
}
