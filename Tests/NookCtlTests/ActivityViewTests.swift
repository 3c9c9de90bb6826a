import Foundation
import NookBus
import NookCore
import Testing
@testable import NookCtlKit

/// What `activity start` and `update` send: the views built from flags, the spec around them,
/// `--view-json` read (or refused by JSON path), and the content remembered between calls.
@Suite struct ActivityViewTests {
    static let now: Int64 = 1_750_000_000_000_000

    /// The shared ids marked in a view, depth first.
    static func marks(_ node: ViewNode) -> [String] {
        (node.props.shared.map { [$0.id] } ?? []) + node.children.flatMap(marks)
    }

    @Test func builtViewsPassTheBrokersCheckWithoutWarnings() throws {
        let contents = [
            ActivityContent(title: "Building"),
            ActivityContent(title: "Building", subtitle: "linking", symbol: "hammer.fill", progress: 0.4),
            ActivityContent(title: "Tea", imageURI: "file:///tmp/tea.png", timerStart: Self.now, timerEnd: Self.now + 240_000_000),
        ]
        for content in contents {
            for (slot, view) in ActivityViews(content: content).slots {
                let checked = try ViewValidator().validate(view.rawNode, slot: slot)
                #expect(checked.root == view, "\(slot) does not round-trip")
                #expect(checked.diagnostics.isEmpty, "\(slot): \(checked.diagnostics)")
            }
        }
    }

    /// The icon grows from the pill into the peek and the expanded view; what stands right of
    /// the notch does too; the capsule's minimal view shares nothing (rule 12).
    @Test func theIconAndTheTrailingElementAreShared() {
        let cases: [(ActivityContent, String)] = [
            (ActivityContent(title: "Building", progress: 0.1), "progress"),
            (ActivityContent(title: "Tea", timerStart: Self.now, timerEnd: Self.now + 1), "timer"),
            (ActivityContent(title: "Note"), "title"),
        ]
        for (content, trailing) in cases {
            let slots = ActivityViews(content: content).slots
            // A countdown's pill also shows its title left of the notch, marked `title`.
            let leading: [String] = trailing == "timer" ? ["icon", "title"] : ["icon"]
            #expect(Self.marks(slots["compact_leading"]!) == leading)
            #expect(Self.marks(slots["compact_trailing"]!) == [trailing])
            #expect(Self.marks(slots["minimal"]!).isEmpty)
            for slot in ["peek", "expanded"] {
                let expected = Set(leading + [trailing])
                #expect(Set(Self.marks(slots[slot]!)) == expected, "\(trailing) in \(slot): \(Self.marks(slots[slot]!))")
                #expect(Self.marks(slots[slot]!).count == expected.count, "one source per id in \(slot)")
            }
        }
        let image = ActivityViews(content: ActivityContent(title: "Tea", imageURI: "file:///tmp/tea.png")).icon(size: 16)
        #expect(image.props.uri == "file:///tmp/tea.png" && image.props.symbol == nil)
    }

    /// A countdown of an hour or more reserves the width of its hours (`0:00:00`): every
    /// countdown node of a 1h05m timer carries that placeholder `text` beside `timer_end`, a
    /// 4 min one none.
    @Test func aCountdownOverAnHourReservesTheWidthOfItsHours() {
        func countdowns(_ node: ViewNode) -> [ViewNode] {
            (node.props.timerEnd != nil ? [node] : []) + node.children.flatMap(countdowns)
        }
        let long = ActivityContent(title: "Roast", timerStart: Self.now, timerEnd: Self.now + 3_900_000_000)
        let longNodes = ActivityViews(content: long).slots.values.flatMap(countdowns)
        #expect(!longNodes.isEmpty)
        #expect(longNodes.allSatisfy { $0.props.text == "0:00:00" }, "\(longNodes.map(\.props.text))")
        let short = ActivityContent(title: "Tea", timerStart: Self.now, timerEnd: Self.now + 240_000_000)
        let shortNodes = ActivityViews(content: short).slots.values.flatMap(countdowns)
        #expect(!shortNodes.isEmpty && shortNodes.allSatisfy { $0.props.text == nil })
    }

    @Test func startIsDetachedWithTheDefaultExpiry() throws {
        var request = ActivityRequest(module: "build", activity: "job")
        request.content.title = .set("Building")
        request.content.progress = .set(0.1)
        let spec = try ActivitySpec.build(request, isStart: true, previous: nil, json: nil, imageURI: nil, now: Self.now)
        #expect(spec.values["lifetime"] == .string("detached"))
        #expect(spec.values["dismiss_date"] == .int(Self.now + 3_600_000_000))
        #expect(spec.values["accessibility_label"] == .string("Building, 10%"))
        #expect(Set(spec.values.keys).isSuperset(of: ["compact_leading", "compact_trailing", "minimal", "peek", "expanded"]))
        #expect(spec.record == .save(ActivityContent(title: "Building", progress: 0.1)))

        // A timer without --expires: a minute after it ends.
        request.content.timer = .set(240)
        let timed = try ActivitySpec.build(request, isStart: true, previous: nil, json: nil, imageURI: nil, now: Self.now)
        #expect(timed.values["dismiss_date"] == .int(Self.now + 300_000_000))
        request.expires = 600
        let explicit = try ActivitySpec.build(request, isStart: true, previous: nil, json: nil, imageURI: nil, now: Self.now)
        #expect(explicit.values["dismiss_date"] == .int(Self.now + 600_000_000))
    }

    @Test func updateKeepsWhatIsNotGiven() throws {
        let previous = ActivityContent(title: "Building", subtitle: "compiling", symbol: "hammer.fill", progress: 0.1)
        var request = ActivityRequest(module: "build", activity: "job")
        request.content.progress = .set(0.6)
        let spec = try ActivitySpec.build(request, isStart: false, previous: previous, json: nil, imageURI: nil, now: Self.now)
        var expected = previous
        expected.progress = 0.6
        #expect(spec.record == .save(expected))
        #expect(spec.values["accessibility_label"] == .string("Building, compiling, 60%"))
        #expect(spec.values["lifetime"] == nil && spec.values["dismiss_date"] == nil, "the dismiss date stays")

        // Only --relevance: the views stay as they are.
        var relevance = ActivityRequest(module: "build", activity: "job")
        relevance.relevance = 3
        let only = try ActivitySpec.build(relevance, isStart: false, previous: nil, json: nil, imageURI: nil, now: Self.now)
        #expect(only.values == ["relevance": .double(3)] && only.record == .keep)

        // Nothing remembered and no title: refused, saying what to give.
        do {
            _ = try ActivitySpec.build(request, isStart: false, previous: nil, json: nil, imageURI: nil, now: Self.now)
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("give --title"), "\(error)")
        }
    }

    static let example = """
        {"accessibility_label": "Deploying",
         "compact_leading": {"kind": "image", "props": {"symbol": "hammer.fill", "shared": {"id": "icon"}}},
         "compact_trailing": {"kind": "text", "props": {"text": "3/7", "monospaced_digits": true}},
         "minimal": {"kind": "image", "props": {"symbol": "hammer.fill"}},
         "expanded": {"kind": "vstack", "props": {"alignment": "leading", "spacing": 6, "padding": 4}, "children": [
             {"kind": "image", "props": {"symbol": "hammer.fill", "width": 32, "height": 32, "shared": {"id": "icon"}}},
             {"kind": "text", "props": {"text": "Deploying step 3 of 7", "font_size": 15, "timer_end": "+5m"}}]}}
        """

    @Test func viewJSONMirrorsTheContractsNode() throws {
        let read = try ViewJSON.parse(Self.example, now: Self.now)
        #expect(read.label == "Deploying")
        #expect(Set(read.slots.keys) == ["compact_leading", "compact_trailing", "minimal", "expanded"])
        let expanded = try #require(read.slots["expanded"])
        #expect(expanded.props["padding"] == .structure(Array(repeating: .double(4), count: 4)))
        #expect(expanded.children[1].props["timer_end"] == .int(Self.now + 300_000_000))
        #expect(expanded.children[0].props["shared"] == .dictionary(["id": .string("icon")]))

        var request = ActivityRequest(module: "deploy", activity: "prod")
        request.viewJSON = "-"
        let spec = try ActivitySpec.build(request, isStart: true, previous: nil, json: read, imageURI: nil, now: Self.now)
        #expect(spec.values["expanded"] == .node(expanded) && spec.values["accessibility_label"] == .string("Deploying"))
        #expect(spec.record == .forget)
    }

    /// Each malformed document, by name, refused with the JSON path at fault.
    @Test func malformedViewJSONNamesThePath() {
        let slots = #""compact_leading": {"kind": "text"}, "compact_trailing": {"kind": "text"}, "minimal": {"kind": "text"}"#
        let cases: [(String, String, String)] = [
            ("a string for a number", #"{"expanded": {"kind": "vstack", "children": [{"kind": "text"}, {"kind": "text"}, {"kind": "text", "props": {"font_size": "x"}}]}}"#,
             #"$.expanded.children[2].props.font_size: expected a number, found "x""#),
            ("not JSON", #"{"expanded": "#, "$: not valid JSON"),
            ("not an object", "[1]", "$: expected an object, found an array"),
            ("unknown slot", #"{"pill": {"kind": "text"}}"#, "$.pill: unknown key"),
            ("unknown node key", #"{"peek": {"kind": "text", "child": []}}"#, "$.peek.child: unknown key"),
            ("no kind", #"{"peek": {"props": {}}}"#, "$.peek.kind: missing"),
            ("unknown kind", #"{"peek": {"kind": "button"}}"#, #"$.peek.kind: unknown kind "button""#),
            ("prop of another kind", #"{"peek": {"kind": "text", "props": {"symbol": "x"}}}"#, "$.peek.props.symbol: not a prop of a text node"),
            ("padding of three", #"{"peek": {"kind": "text", "props": {"padding": [1, 2, 3]}}}"#, "$.peek.props.padding: expected four numbers"),
            ("shared key unknown", #"{"peek": {"kind": "text", "props": {"shared": {"id": "a", "kind": "x"}}}}"#, "$.peek.props.shared.kind: not a shared key"),
            ("fractional date", #"{"peek": {"kind": "text", "props": {"timer_end": 1.5}}}"#, "$.peek.props.timer_end: expected whole unix microseconds"),
            ("size out of range", #"{"peek": {"kind": "hstack", "children": [{"kind": "text", "props": {"width": -1}}]}}"#,
             "$.peek.children[0].props.width: a size must be finite, not negative"),
            ("bad shared id", #"{"peek": {"kind": "text", "props": {"shared": {"id": "a b"}}}}"#, "$.peek.props.shared.id: id"),
            ("null in params", #"{"peek": {"kind": "view", "props": {"name": "X", "params": {"a": [1, null]}}}}"#, "$.peek.props.params.a[1]: null"),
            ("label not a string", "{\(slots), \"accessibility_label\": 3}", "$.accessibility_label: expected a string, found 3"),
        ]
        for (name, json, expected) in cases {
            do {
                _ = try ViewJSON.parse(json, now: Self.now)
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.description.hasPrefix(expected), "\(name): \(error)")
            }
        }
        #expect(ViewJSON.jsonPath("expanded/0/2.shared.id") == "$.expanded.children[0].children[2].props.shared.id")
        #expect(ViewJSON.jsonPath("peek") == "$.peek")
    }

    @Test func aStartFromJSONNeedsTheRequiredSlotsAndALabel() throws {
        var request = ActivityRequest(module: "deploy", activity: "prod")
        request.viewJSON = "-"
        let partial = try ViewJSON.parse(#"{"accessibility_label": "x", "compact_leading": {"kind": "text"}}"#, now: Self.now)
        #expect(throws: ActivityProblem("--view-json: $.compact_trailing: missing (an activity starts with compact_leading, compact_trailing and minimal)")) {
            try ActivitySpec.build(request, isStart: true, previous: nil, json: partial, imageURI: nil, now: Self.now)
        }
        let unlabelled = try ViewJSON.parse(#"{"minimal": {"kind": "text"}}"#, now: Self.now)
        #expect(throws: ActivityProblem.self) {
            try ActivitySpec.build(request, isStart: true, previous: nil, json: unlabelled, imageURI: nil, now: Self.now)
        }
        // An update may send one slot alone: the others stay as the broker holds them.
        let one = try ActivitySpec.build(request, isStart: false, previous: nil, json: unlabelled, imageURI: nil, now: Self.now)
        #expect(Set(one.values.keys) == ["minimal"])
    }

    @Test func theRecordStoreKeepsContentPerActivity() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nookctl-records-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ActivityRecordStore(directory: directory)
        let content = ActivityContent(title: "Tea", subtitle: "Earl grey", timerStart: 1, timerEnd: 2)
        try store.save(content, module: "tea", activity: "..")
        try store.save(ActivityContent(title: "Other"), module: "tea", activity: "b")
        #expect(store.load(module: "tea", activity: "..") == content)
        #expect(store.file(module: "tea", activity: "..").deletingLastPathComponent().path == directory.path)
        store.remove(module: "tea", activity: "..")
        #expect(store.load(module: "tea", activity: "..") == nil && store.load(module: "tea", activity: "b") != nil)

        // A record older than any detached activity can live goes on the next save.
        let old = store.file(module: "tea", activity: "b")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -90_000)], ofItemAtPath: old.path)
        try store.save(content, module: "tea", activity: "c")
        #expect(store.load(module: "tea", activity: "b") == nil && store.load(module: "tea", activity: "c") == content)

        let standard = ActivityRecordStore.standard(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"])
        #expect(standard.directory.path == "/x/state/nookctl/activities")
        #expect(ActivityRecordStore.standard(environment: ["HOME": "/home/u"]).directory.path == "/home/u/.local/state/nookctl/activities")
    }

    /// docs/scripting.md's JSON example is a document `--view-json` takes, whole.
    @Test func theDocumentedExampleIsAccepted() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/scripting.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let block = try #require(text.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let read = try ViewJSON.parse(block, now: Self.now)
        var request = ActivityRequest(module: "deploy", activity: "prod")
        request.viewJSON = "view.json"
        let spec = try ActivitySpec.build(request, isStart: true, previous: nil, json: read, imageURI: nil, now: Self.now)
        #expect(spec.values["accessibility_label"] == .string("Deploying") && spec.values["expanded"] != nil)
    }
}
