// What a SwiftUI developer writes first in a live activity, written as in SwiftUI.
import NookModuleAPI

struct BuildAttributes: NookActivityAttributes {
    struct ContentState: Hashable, Sendable {
        var step: Double
        var failed: Bool
    }

    var name: String

    func accessibilityLabel(_ context: Context) -> String { "Building \(name)" }

    func compactLeading(_ context: Context) -> some NookView {
        Image(systemName: "hammer").resizable().nookSharedElement("icon")
    }

    func compactTrailing(_ context: Context) -> some NookView {
        Text("\(Int(context.state.step))/10").font(.caption).bold()
    }

    func minimal(_ context: Context) -> some NookView {
        Image(systemName: "hammer")
    }

    func expanded(_ context: Context) -> some NookView {
        VStack {
            Label("Build", systemImage: "hammer")
            Text(name).font(.headline).bold().foregroundColor(context.state.failed ? .red : .white)
            ProgressView(value: 3, total: 10)
            Image(systemName: "x").resizable().nookSharedElement("icon", isSource: false)
        }
    }
}

let card = VStack {
    Text("Build").font(.headline).bold().foregroundColor(.red)
    ProgressView(value: 3, total: 10)
    Label("Build", systemImage: "hammer")
    Image(systemName: "x").resizable().nookSharedElement("icon", isSource: false)
}
print(BuildAttributes(name: "nook").name, card._encode().nodes.count)
