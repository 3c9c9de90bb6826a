import NookCore
import NookModuleAPI

// Seed 001's "use your own namespace" sample, as a module writes it. (The hero card itself is
// Examples/HeroCard's, tested as the example has it: NookHeroCard.)

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
