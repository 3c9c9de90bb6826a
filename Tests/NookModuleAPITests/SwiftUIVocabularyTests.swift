import NookCore
import Testing
@testable import NookModuleAPI

/// Issue 45, parts 2 and 3: a view written in SwiftUI's own words compiles against the SDK and
/// sends what those words mean.
@Suite struct SwiftUIVocabularyTests {
    /// What a SwiftUI developer writes first in a live activity.
    struct BuildCard: NookView {
        var body: some NookView {
            VStack(alignment: .leading, spacing: 4) {
                Label("Build", systemImage: "hammer")
                Text("Compiling").font(.headline)
                Text("step 3 of 10").font(.caption).foregroundColor(.red).bold().italic()
                ProgressView(value: 3, total: 10)
                Image(systemName: "hammer").resizable().scaledToFit().frame(width: 24, height: 24)
                Image(systemName: "hammer").nookSharedElement("icon", isSource: false)
            }
        }
    }

    static func nodes(_ view: some NookView) -> [ViewNode] {
        var all: [ViewNode] = []
        func walk(_ node: ViewNode) {
            all.append(node)
            node.children.forEach(walk)
        }
        walk(view.viewNode)
        return all
    }

    @Test func swiftUIWordsCompileAndMeanTheSame() throws {
        let nodes = Self.nodes(BuildCard())
        let texts = nodes.filter { $0.kind == .text }
        let headline = try #require(texts.first { $0.props.text == "Compiling" })
        #expect(headline.props.fontSize == 17 && headline.props.fontWeight == "semibold")
        let caption = try #require(texts.first { $0.props.text == "step 3 of 10" })
        #expect(caption.props.fontSize == 12 && caption.props.fontWeight == "bold")
        #expect(caption.props.color == NookColor.red.hex)
        #expect(caption.props.classes == "italic")
        let progress = try #require(nodes.first { $0.kind == .progress })
        #expect(progress.props.value == 0.3)
        #expect(ProgressView(value: 5, total: 0).viewNode.props.value == 0, "a total of 0 is empty, not a trap")
        // Label: the symbol beside the title.
        #expect(nodes.contains { $0.kind == .hstack && $0.children.map(\.kind) == [.image, .text] && $0.children[1].props.text == "Build" })
        // A follower from the nook modifier (what duplicate-source advises).
        let follower = try #require(nodes.first { $0.props.shared?.id == "icon" })
        #expect(follower.props.shared?.isSource == false)
        // The whole view passes the broker's validator.
        _ = try ViewValidator().validate(BuildCard().viewNode.rawNode, slot: "expanded")
    }
}
