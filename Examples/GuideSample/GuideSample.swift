// The complete module of docs/module-guide.md, verbatim: a target of its own, so the build
// proves the guide's code compiles; the unit and integration tests both use it from here.

import NookModuleAPI

/// One pot of tea steeping.
struct Brew: Hashable, Sendable {
    var id: String  // "green", "oolong": also the activity id
    var name: String
    var started: NookInstant
    var ends: NookInstant
}

/// The time left, counted down by the renderer.
struct Countdown: NookView {
    var brew: Brew
    var size: Double = 13

    var body: some NookView {
        Text(timerEndingAt: brew.ends)
            .font(size: size, weight: .semibold)
            .monospacedDigit()
    }
}

/// A row of the home: the name, then the countdown, marked per brew.
struct BrewRow: NookView {
    var brew: Brew

    var body: some NookView {
        HStack {
            Image(systemName: "cup").frame(width: 16, height: 16)
            Text(brew.name)
            Spacer()
            Countdown(brew: brew, size: 15)
                .nookSharedElement("timer.\(brew.id)", style: .scale)
        }
    }
}

struct TeaModule {
    var brews: [Brew]

    /// The module's own views: an icon in the pill, every brew in the home, a board widget.
    func configuration() -> NookModuleConfiguration {
        var configuration = NookModuleConfiguration(id: "tea", displayName: "Tea", version: "1.0")
        configuration.setCompactLeading {
            Image(systemName: "cup")
        }
        configuration.setHome {
            VStack(alignment: .leading, spacing: 6) {
                Text("Steeping").font(size: 17, weight: .bold).role(.header)
                ForEach(brews, id: \.id) { brew in
                    BrewRow(brew: brew)
                }
            }
            .tw("p-2 animate-snappy", value: brews.count)
        }
        configuration.setWidget {
            HStack {
                Image(systemName: "cup")
                Text(brews.count == 1 ? "1 pot" : "\(brews.count) pots")
            }
        }
        return configuration
    }

    /// One live activity per brew.
    func activity(for brew: Brew) -> NookLiveActivity {
        var activity = NookLiveActivity(
            id: brew.id, accessibilityLabel: "\(brew.name) tea, steeping", staleDate: brew.ends
        ) {
            Image(systemName: "cup")
        } compactTrailing: {
            Countdown(brew: brew).nookSharedElement("timer", style: .scale)
        } minimal: {
            ProgressView(start: brew.started, end: brew.ends).progressViewStyle(.circular)
        }
        activity.setExpanded {
            VStack(alignment: .leading, spacing: 6) {
                Text(brew.name).font(size: 15, weight: .semibold)
                Countdown(brew: brew, size: 28).nookSharedElement("timer", style: .scale)
                ProgressView(start: brew.started, end: brew.ends)
            }
        }
        return activity
    }
}
