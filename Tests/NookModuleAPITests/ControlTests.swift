import NookBus
import Synchronization
import Testing
import NookCore
@testable import NookModuleAPI

/// Controls in the SDK (contract 1.1 Touch): `Button`, `.onTapGesture`, `.actionID`,
/// `.disabled`, and the closures a view keeps under its action ids.
@Suite struct ControlTests {
    /// Counts which closures ran, from any task.
    final class Presses: Sendable {
        private let names = Locked<[String]>([])
        func press(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    static func player(_ presses: Presses, playing: Bool) -> NookLiveActivity {
        var song = NookLiveActivity(id: "song", accessibilityLabel: "Now playing") {
            Image(systemName: "music.note")
        } compactTrailing: {
            Button("Pause", systemImage: playing ? "pause.fill" : "play.fill") { presses.press(playing ? "pause" : "play") }
        } minimal: {
            Image(systemName: "music.note")
        }
        song.setExpanded {
            VStack {
                Text("Quiet Song")
                HStack {
                    Button(action: { presses.press("previous") }) { Image(systemName: "backward.fill") }
                    Button(action: { presses.press("play-pause") }) { Image(systemName: playing ? "pause.fill" : "play.fill") }
                        .actionID("play-pause")
                    Button("Next") { presses.press("next") }
                }
            }
        }
        return song
    }

    /// Every node's `action`, in preorder.
    static func actions(_ node: ViewNode) -> [String] {
        (node.props.action.map { [$0] } ?? []) + node.children.flatMap(actions)
    }

    @Test func buttonsGetIdsFromTheirPlaceUnlessNamedAndTheyAreStableAcrossRenders() throws {
        let presses = Presses()
        let first = Self.player(presses, playing: true)
        #expect(Self.actions(try #require(first.expanded)) == ["expanded.1.0", "play-pause", "expanded.1.2"])
        #expect(Self.actions(first.compactTrailing) == ["compact_trailing"])
        // The same structure rendered again (other symbols, other closures) keeps every id.
        let second = Self.player(presses, playing: false)
        #expect(Self.actions(try #require(second.expanded)) == Self.actions(try #require(first.expanded)))
        #expect(first.actions.mapValues(\.ids) == second.actions.mapValues(\.ids))
        // Ids never leak the provisional form, and each view validates as the broker will.
        #expect(try first.validate().isEmpty)
        #expect(!Self.actions(try #require(first.expanded)).contains { $0.hasPrefix("pending.") })
    }

    @Test func aButtonsLabelNodeIsTheControlAndSeveralLabelViewsShareAnHStack() throws {
        // A title is a text in an hstack padded for the button's plate; the hstack is the control.
        let single = Button("Toggle") {}.viewNode
        #expect(single.kind == .hstack && single.props.action == "view" && single.props.role == .button)
        #expect(single.props.padding == Button.titlePadding)
        #expect(single.children.map(\.kind) == [.text] && single.children.first?.props.text == "Toggle")
        #expect(single.children.allSatisfy { $0.props.action == nil && $0.props.role == nil })
        let icon = Button("Pause", systemImage: "pause.fill") {}.viewNode
        #expect(icon.kind == .image && icon.props.actionLabel == "Pause" && icon.props.role == .button)
        let several = Button(action: {}) {
            Image(systemName: "play.fill")
            Text("Play")
        }.viewNode
        #expect(several.kind == .hstack && several.props.action == "view" && several.props.role == .button
                    && several.children.map(\.kind) == [.image, .text])
        #expect(several.children.allSatisfy { $0.props.action == nil })
    }

    @Test func closuresRunUnderTheIdsTheViewCarriesAndAReplacedViewReplacesThem() async throws {
        let presses = Presses()
        var song = Self.player(presses, playing: true)
        await song.action("play-pause", preferring: "expanded")?.run()
        await song.action("expanded.1.2", preferring: "expanded")?.run()
        await song.action("compact_trailing", preferring: "compact_trailing")?.run()
        #expect(presses.all == ["play-pause", "next", "pause"])

        // Replaced by a view without the previous button: its id finds nothing any more.
        song.setExpanded { Button("Stop") { presses.press("stop") }.actionID("stop") }
        #expect(song.action("play-pause", preferring: "expanded") == nil)
        #expect(song.action("expanded.1.0", preferring: "expanded") == nil)
        await song.action("stop", preferring: "expanded")?.run()
        #expect(presses.all.last == "stop")
        // A view set as a plain node carries no closures.
        song.compactTrailing = Text("Paused").viewNode
        #expect(song.action("compact_trailing", preferring: "compact_trailing") == nil)
    }

    @Test func onTapGestureMakesAnyViewAControlAndWrapsOneThatIsAlready() throws {
        let presses = Presses()
        let tapped = Image(systemName: "music.note").frame(width: 20, height: 20).onTapGesture { presses.press("tap") }.viewNode
        #expect(tapped.kind == .image && tapped.props.action == "view" && tapped.props.width == 20)
        let twice = Button("Play") { presses.press("play") }.onTapGesture { presses.press("outer") }.viewNode
        #expect(twice.kind == .zstack && twice.props.action == "view" && twice.children.first?.props.action == "view.0")
    }

    @Test func disabledSuppressesTheActionsAndSetsTheGroupsDisabledState() throws {
        let presses = Presses()
        var configuration = NookModuleConfiguration(id: "music")
        configuration.setHome {
            HStack {
                Button("Previous") { presses.press("previous") }
                Button("Next") { presses.press("next") }.actionID("next")
            }
            .group("controls")
            .disabled(true)
        }
        let home = try #require(configuration.content[.home])
        #expect(home.view.props.groupState == ["disabled": true] && home.view.props.group == "controls")
        #expect(Self.actions(home.view).isEmpty, "a disabled view sends no action")
        #expect(home.actions.isEmpty, "and keeps no closure")
        // A label stays for assistive technology.
        let labelled = Button("Pause", systemImage: "pause.fill") {}.disabled().viewNode
        #expect(labelled.props.action == nil && labelled.props.actionLabel == "Pause" && labelled.props.groupState == ["disabled": true])

        configuration.setHome {
            HStack { Button("Next") { presses.press("next") }.actionID("next") }.group("controls").disabled(false)
        }
        let enabled = try #require(configuration.content[.home])
        #expect(enabled.view.props.groupState == ["disabled": false] && Self.actions(enabled.view) == ["next"])
        #expect(enabled.actions.ids == ["next"])
    }

    @Test func accessibilityLabelGoesOntoTheControlThroughWrappers() throws {
        let view = Button(action: {}) { Image(systemName: "forward.fill") }
            .padding(4)
            .tw("bg-white/10 rounded-full")
            .accessibilityLabel("Next track")
        let root = view.viewNode
        func control(_ node: ViewNode) -> ViewNode? { node.props.action != nil ? node : node.children.lazy.compactMap(control).first }
        #expect(control(root)?.props.actionLabel == "Next track")
    }
}
