import Testing
import NookCore
@testable import NookModuleAPI

// What a module publishes, as the contract's payloads.

private func activity() -> NookLiveActivity {
    NookLiveActivity(id: "tea", accessibilityLabel: "Tea timer", relevance: 0.5,
                     staleDate: NookInstant(unixMicroseconds: 9_000_000)) {
        Image(systemName: "cup")
    } compactTrailing: {
        Text(timerEndingAt: NookInstant(unixMicroseconds: 8_000_000))
    } minimal: {
        Image(systemName: "timer")
    }
}

@Test func startSpecHasContractKeysAndTypes() {
    let spec = activity().startSpec(sequence: 7)
    #expect(
        spec == [
            "accessibility_label": .string("Tea timer"),
            "compact_leading": .node(node("image", ["symbol": .string("cup")])),
            "compact_trailing": .node(node("text", ["timer_end": .int(8_000_000)])),
            "minimal": .node(node("image", ["symbol": .string("timer")])),
            "relevance": .double(0.5),
            "stale_date": .int(9_000_000),
            "sequence": .uint(7),
        ])
}

@Test func startSpecLeavesOutUnsetOptionalKeys() {
    let bare = NookLiveActivity(id: "a", accessibilityLabel: "A") { Text("l") } compactTrailing: { Text("t") } minimal: { Text("m") }
    #expect(Set(bare.startSpec(sequence: 1).keys) == ["accessibility_label", "compact_leading", "compact_trailing", "minimal", "sequence"])
}

@Test func updateCarriesOnlyWhatChangedPlusSequence() {
    let old = activity()
    var new = old
    #expect(new.changes(since: old, sequence: 8) == ["sequence": .uint(8)])
    new.setExpanded { Text("Steeping").role(.header) }
    new.relevance = 0.9
    #expect(
        new.changes(since: old, sequence: 9) == [
            "expanded": .node(node("text", ["text": .string("Steeping"), "role": .string("header")])),
            "relevance": .double(0.9), "sequence": .uint(9),
        ])
    #expect(new.changes(since: nil, sequence: 10).count == new.startSpec(sequence: 10).count)
}

@Test func updateOptionsSendAnimateFalseAndTheCallersAnimation() {
    let old = activity()
    var new = old
    new.setPeek { Text("peek") }
    let changes = new.changes(since: old, sequence: 2, options: UpdateOptions(animate: false, animation: .snappy))
    #expect(changes["animate"] == .bool(false))
    #expect(changes["animation"] == .string("snappy"))
    #expect(changes["peek"] != nil)
    #expect(new.changes(since: old, sequence: 3)["animate"] == nil, "true is the default and is not sent")
}

@Test func settersReplaceEachView() {
    var a = activity()
    a.setCompactLeading { Text("L") }
    a.setCompactTrailing { Text("T") }
    a.setMinimal { Text("M") }
    #expect([a.compactLeading, a.compactTrailing, a.minimal].map(\.props.text) == ["L", "T", "M"])
    #expect(a.views.map(\.key) == ["compact_leading", "compact_trailing", "minimal"])
}

@Test func dismissalBecomesEndOptions() {
    #expect(NookDismissal.immediate.endOptions == ["dismissal": .string("immediate")])
    #expect(NookDismissal.default.endOptions == ["dismissal": .string("default")])
}

@Test func configurationProducesSetContentPerSlotInOrder() throws {
    var configuration = NookModuleConfiguration(id: "timer", displayName: "Timers", version: "1.0")
    configuration.setWidget { Text("2 timers") }
    configuration.setHome(animate: false) { VStack { Text("Tea") } }
    configuration.setCompactTrailing { Text("3:00") }
    #expect(configuration.setContentCalls.map(\.slot.rawValue) == ["compact_trailing", "home", "widget"])
    let home = try #require(configuration.content[.home])
    #expect(home.rawView == node("vstack", ["animate": .bool(false)], [node("text", ["text": .string("Tea")])]))
    #expect(configuration.content[.widget]?.rawView.props["animate"] == nil)
    for call in configuration.setContentCalls { #expect(try call.validated().diagnostics.isEmpty) }
    #expect(configuration.registerInfo == ["display_name": .string("Timers"), "version": .string("1.0")])
    configuration.clear(.home)
    #expect(configuration.content[.home] == nil)
    #expect(NookModuleConfiguration(id: "x").registerInfo.isEmpty)
}

@Test func setContentValidationNamesTheSlotInItsPath() {
    let call = SetContent(slot: .widget, view: Text("a").frame(width: -1).viewNode)
    #expect(throws: ViewValidationError.self) { try call.validated() }
    do { _ = try call.validated() } catch { #expect(error.path == "widget.width") }
}

@Test func activityValidationNamesTheViewsSlot() throws {
    var a = activity()
    #expect(try a.validate().isEmpty)
    a.setExpanded { VStack { Text("a"); Circle().nookSharedElement("bad id") } }
    #expect(throws: ViewValidationError.self) { try a.validate() }
    do { try a.validate() } catch { #expect(error.path == "expanded/1.shared.id") }
}

/// `isDismissible` (an addition, spec key `dismissible`): false is sent, true is the default
/// and is not, and going back to true is said.
@Test func anActivityThatMustStaySaysSoAndCanTakeItBack() {
    var kept = activity()
    #expect(kept.startSpec(sequence: 1)["dismissible"] == nil, "true is the default and is not sent")
    kept.isDismissible = false
    #expect(kept.startSpec(sequence: 1)["dismissible"] == .bool(false))
    var again = kept
    again.isDismissible = true
    #expect(again.changes(since: kept, sequence: 2) == ["dismissible": .bool(true), "sequence": .uint(2)])
    #expect(kept.changes(since: activity(), sequence: 3) == ["dismissible": .bool(false), "sequence": .uint(3)])
}
