import Testing
import NookBroker
import NookCore

@Suite struct RenderSubscriberTests {
    let laptop = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)
    let monitor = DisplayInfo(width: 1920, height: 1080, notchWidth: 0, notchHeight: 0, scale: 1)

    /// A pill whose cover moves into the module's home when the nook opens.
    func content(expanded: Bool) -> SceneContent {
        var cover = NodeProps()
        cover.width = expanded ? 156 : 20
        cover.height = cover.width
        cover.shared = SharedMark(id: "cover")
        let coverNode = ViewNode(kind: .shape, props: cover)
        var content = SceneContent(compactLeading: OwnedView(module: "music", activity: "song", view: coverNode),
                                   compactTrailing: OwnedView(module: "music", activity: "song", view: ViewNode(kind: .text)))
        if expanded { content.expanded = .home(OwnedView(module: "music", view: ViewNode(kind: .hstack, children: [coverNode]))) }
        return content
    }

    func settings() -> PlannerSettings { PlannerSettings(display: laptop) }

    @Test func plansFollowEachSubscribersOwnDisplay() {
        var onLaptop = RenderSubscriber(connection: ":1.5", display: laptop)
        var onMonitor = RenderSubscriber(connection: ":1.6", display: monitor)
        let subscribe = PlanAction(cause: .subscribe, serial: 1)
        let a = onLaptop.plan(to: content(expanded: false), presentation: .pill, action: subscribe, settings: settings(), now: .zero).plan
        let b = onMonitor.plan(to: content(expanded: false), presentation: .pill, action: subscribe, settings: settings(), now: .zero).plan
        #expect(a.freshWindow && b.freshWindow)
        #expect(a.chrome.toRect.midX == 756 && b.chrome.toRect.midX == 960, "each pill sits at its own display's centre")
    }

    @Test func laterPlansStartFromWhatWasSentAndNameTheInterruptedPlan() {
        var subscriber = RenderSubscriber(connection: ":1.5", display: laptop)
        _ = subscriber.plan(to: content(expanded: false), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: settings(), now: .zero)
        let open = subscriber.plan(to: content(expanded: true), presentation: .expanded, action: PlanAction(cause: .open, serial: 2),
                                   settings: settings(), now: BrokerTime(seconds: 5)).plan
        #expect(open.from == .pill && open.to == .expanded)
        #expect(open.interrupts == 0, "the subscribe plan had long finished")
        #expect(open.elements.map(\.key) == ["music/cover"])
        let close = subscriber.plan(to: content(expanded: false), presentation: .pill, action: PlanAction(cause: .close, serial: 3),
                                    settings: settings(), now: BrokerTime(seconds: 5.05)).plan
        #expect(close.interrupts == 2, "closing 50 ms into the open interrupts it (rule 21)")
    }

    @Test func withoutRelayoutResizeBecomesScale() {
        var subscriber = RenderSubscriber(connection: ":1.5", display: laptop, capabilities: [.spring])
        _ = subscriber.plan(to: content(expanded: false), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: settings(), now: .zero)
        let open = subscriber.plan(to: content(expanded: true), presentation: .expanded, action: PlanAction(cause: .open, serial: 2),
                                   settings: settings(), now: BrokerTime(seconds: 5))
        #expect(open.plan.elements.first?.style == .scale)
        #expect(open.sampleRate == nil, "springs stay springs for a renderer that has them")
        var plain = RenderSubscriber(connection: ":1.7", display: laptop, refreshRate: 120, capabilities: [])
        #expect(plain.plan(to: content(expanded: false), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1),
                           settings: settings(), now: .zero).sampleRate == 120)
    }

    /// Rule 6's different views under one id: cross-faded for a renderer with `crossfade`,
    /// the destination view alone for one without.
    @Test func withoutCrossfadeDifferentViewsTravelAsTheDestinationView() {
        var artwork = NodeProps()
        artwork.symbol = "music.note"
        artwork.width = 156
        artwork.height = 156
        artwork.shared = SharedMark(id: "cover")
        var expanded = content(expanded: false)
        expanded.expanded = .home(OwnedView(module: "music", view: ViewNode(kind: .hstack, children: [ViewNode(kind: .image, props: artwork)])))
        func open(_ capabilities: Set<RenderCapability>) -> TransitionPlan {
            var subscriber = RenderSubscriber(connection: ":1.5", display: laptop, capabilities: capabilities)
            _ = subscriber.plan(to: content(expanded: false), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: settings(), now: .zero)
            return subscriber.plan(to: expanded, presentation: .expanded, action: PlanAction(cause: .open, serial: 2),
                                   settings: settings(), now: BrokerTime(seconds: 5)).plan
        }
        let full = open(RenderCapability.v1)
        #expect(full.elements.map(\.key) == ["music/cover"])
        #expect(full.elements.first?.crossFade == true, "a shape becoming an image cross-fades (rule 6)")
        let plain = open([.relayout, .spring])
        #expect(plain.elements.map(\.key) == ["music/cover"], "it still moves")
        #expect(plain.elements.first?.crossFade == false)
        #expect(plain.elements.first?.toRect == full.elements.first?.toRect)
    }

    @Test func atMostOnePlanPerFrame() {
        var subscriber = RenderSubscriber(connection: ":1.5", display: laptop, refreshRate: 50)
        #expect(subscriber.nextSendTime(now: .zero) == .zero, "nothing sent yet: at once")
        _ = subscriber.plan(to: content(expanded: false), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: settings(), now: .zero)
        #expect(subscriber.nextSendTime(now: BrokerTime(seconds: 0.005)) == BrokerTime(seconds: 0.02))
        #expect(subscriber.nextSendTime(now: BrokerTime(seconds: 1)) == BrokerTime(seconds: 1))
    }
}
