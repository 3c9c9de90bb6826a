import NookCore
import Testing
@testable import NookModuleAPI

/// Issue 45, part 1: buttons bound to intents, ActivityKit's `Button(intent:)`. An intent is a
/// value whose `perform` is written once on its type; the control's action id is the type's
/// name in kebab case, the same at every render and wherever the button moves.
@Suite struct IntentTests {
    struct CancelBuild: NookIntent {
        let presses: ControlTests.Presses
        func perform() async { presses.press("cancel") }
    }

    struct SkipSeconds: NookIntent {
        let seconds: Int
        let presses: ControlTests.Presses
        var actionID: String { "skip-\(seconds)" }
        func perform() async { presses.press("skip \(seconds)") }
    }

    static func card(_ presses: ControlTests.Presses, moved: Bool) -> EncodedView {
        VStack {
            if moved { Text("Step 2 of 5") }
            Button("Cancel", intent: CancelBuild(presses: presses))
            HStack {
                Button("Back 10", systemImage: "gobackward.10", intent: SkipSeconds(seconds: -10, presses: presses))
                Button(intent: SkipSeconds(seconds: 30, presses: presses)) { Image(systemName: "goforward.30") }
            }
        }._encode()
    }

    @Test func anIntentsButtonKeepsItsTypesNameWhereverItIs() throws {
        let presses = ControlTests.Presses()
        let before = Self.card(presses, moved: false).finalizedRoot(key: "expanded")
        let after = Self.card(presses, moved: true).finalizedRoot(key: "expanded")
        for view in [before, after] {
            #expect(Set(ControlTests.actions(view.node)) == ["cancel-build", "skip--10", "skip-30"])
            #expect(view.actions.ids == ["cancel-build", "skip--10", "skip-30"])
        }
        // The titled forms keep their plate and their accessible name, as `action:` buttons do.
        let cancel = Button("Cancel", intent: CancelBuild(presses: presses)).viewNode
        #expect(cancel.props.role == .button && cancel.props.action == "cancel-build")
        #expect(Button("Back 10", systemImage: "gobackward.10", intent: SkipSeconds(seconds: -10, presses: presses)).viewNode.props.actionLabel == "Back 10")
    }

    @Test func pressingRunsTheIntentsPerform() async throws {
        let presses = ControlTests.Presses()
        let view = Self.card(presses, moved: true).finalizedRoot(key: "expanded")
        for id in ["skip-30", "cancel-build", "skip--10"] {
            let action = try #require(view.actions[id], "no action \(id)")
            await action.run()
        }
        #expect(presses.all == ["skip 30", "cancel", "skip -10"])
    }

    @Test(arguments: [
        ("CancelBuild", "cancel-build"), ("HTTPRetry", "http-retry"), ("Skip<Int>", "skip-int"), ("Play2x", "play2x"),
        ("already-kebab", "already-kebab"), ("Ω", "intent"), ("Retry__Now", "retry-now"),
    ])
    func theDefaultActionIDIsTheTypeNameInKebabCase(name: String, id: String) {
        #expect(NookIntentName.kebabCase(name) == id)
        #expect(Identifier.isValid(NookIntentName.kebabCase(name)))
    }

    @Test func aLongTypeNameIsCutToTheIdLimit() {
        let id = NookIntentName.kebabCase(String(repeating: "Word", count: 100))
        #expect(id.count == Identifier.maxLength && Identifier.isValid(id))
    }
}
