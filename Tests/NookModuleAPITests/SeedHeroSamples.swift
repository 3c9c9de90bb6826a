import NookModuleAPI

// Seed 001's samples, as a module writes them. The seed's `@State` becomes a stored property
// (a module keeps state in its model and re-sends the view); its `Button` is the SDK's, whose
// action runs in the module when the nook's control is pressed.

struct HeroCard: NookView {
    var expanded = false
    var toggle: @Sendable () async -> Void = {}

    private var cover: some NookView {
        RoundedRectangle(cornerRadius: 16)
            .fill(.indigo)
    }

    var body: some NookView {
        VStack {
            ZStack {
                if expanded {
                    cover.tw("shared-[cover] w-80 h-50")
                } else {
                    cover.tw("shared-[cover] w-20 h-20")
                }
            }
            Button("Toggle", action: toggle)
                .buttonStyle(.tw("button-primary"))
        }
        .tw("group/hero animate-smooth duration-400", value: expanded)
    }
}

/// "Use your own namespace": the same pair, matched in a caller namespace.
struct HeroTitleCard: NookView {
    var expanded = false
    private let hero = Namespace("hero")

    private var cover: some NookView {
        RoundedRectangle(cornerRadius: 16).fill(.indigo)
    }

    private var title: some NookView {
        Text("Weightless").font(size: expanded ? 22 : 13, weight: .bold)
    }

    var body: some NookView {
        if expanded {
            VStack(alignment: .leading) {
                cover.twShared("cover", in: hero).frame(width: 320, height: 200)
                title.twShared("title", in: hero, properties: .position, anchor: .leading)
            }
            .twAnimation(.animation(.smooth), .duration(0.4), value: expanded)
        } else {
            HStack {
                cover.twShared("cover", in: hero).frame(width: 80, height: 80)
                title.twShared("title", in: hero, properties: .position, anchor: .leading)
            }
            .twAnimation(.animation(.smooth), .duration(0.4), value: expanded)
        }
    }
}
