import Testing
import Foundation
import NookCore
@testable import NookModuleAPI
@testable import NookGuideSample

// The guide's module publishes what the guide says it does.

private let start = NookInstant(unixMicroseconds: 1_800_000_000_000_000)
private let module = TeaModule(brews: [
    Brew(id: "green", name: "Sencha", started: start, ends: start + .seconds(120)),
    Brew(id: "black", name: "Assam", started: start, ends: start + .seconds(240)),
])

@Test func guideModuleContentPassesValidation() throws {
    let configuration = module.configuration()
    #expect(configuration.setContentCalls.map(\.slot) == [.compactLeading, .home, .widget])
    for call in configuration.setContentCalls { #expect(try call.validated().diagnostics.isEmpty) }
}

@Test func guideHomeMarksEachTimerWithItsActivityId() throws {
    let home = try #require(module.configuration().content[.home]).view
    let ids = SlotNamespaces(resolving: home, slot: "home", owner: SlotOwner(module: "tea")).elements.map(\.id)
    #expect(ids == ["timer.green", "timer.black"])
    #expect(home.children.dropFirst().map(\.props.identity) == ["green", "black"])
    #expect(home.props.animationValue == "2")
}

@Test func guideActivitiesMarkTheirTimerAndValidate() throws {
    for brew in module.brews {
        let activity = module.activity(for: brew)
        #expect(activity.startSpec(sequence: 1)["stale_date"] == .int(brew.ends.unixMicroseconds))
        for (slot, view) in activity.views {
            #expect(try ViewValidator().validate(view.rawNode, slot: slot).diagnostics.isEmpty)
        }
        let owner = SlotOwner(module: "tea", activity: brew.id)
        let trailing = SlotNamespaces(resolving: activity.compactTrailing, slot: "compact_trailing", owner: owner)
        #expect(trailing.elements.map(\.style) == [.scale])
        #expect(activity.compactTrailing.children.first?.props.timerEnd == brew.ends.unixMicroseconds)
    }
}

@Test func guideSampleIsTheCodeThisSuiteCompiles() throws {
    // Guards the guide against drifting from the compiled copy: the guide's code block that
    // starts with `import NookModuleAPI` must equal Examples/GuideSample/GuideSample.swift minus its `//` header.
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let guide = try String(contentsOf: root.appendingPathComponent("docs/module-guide.md"), encoding: .utf8)
    let source = try String(contentsOf: root.appendingPathComponent("Examples/GuideSample/GuideSample.swift"), encoding: .utf8)
    let blocks = guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    let sample = try #require(blocks.first { $0.hasPrefix("import NookModuleAPI") })
    let compiled = source.split(separator: "\n", omittingEmptySubsequences: false)
        .drop { $0.hasPrefix("//") || $0.isEmpty }.joined(separator: "\n")
    #expect(sample.trimmingCharacters(in: .whitespacesAndNewlines) == compiled.trimmingCharacters(in: .whitespacesAndNewlines))
}
