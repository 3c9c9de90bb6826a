import Testing
import NookCore
@testable import NookModuleAPI

// Each built-in view against CONTRACT's node table: kind, its own props, children.

@Test func vstackSendsAlignmentSpacingAndChildrenInOrder() throws {
    let raw = try wire(
        VStack(alignment: .leading, spacing: 4) {
            Text("one")
            Text("two")
        })
    #expect(
        raw == node(
            "vstack", ["alignment": .string("leading"), "spacing": .double(4)],
            [node("text", ["text": .string("one")]), node("text", ["text": .string("two")])]))
}

@Test func hstackAndZstackUseTheirOwnKinds() throws {
    let h = try wire(HStack(alignment: .top, spacing: 2) { Spacer() })
    #expect(h == node("hstack", ["alignment": .string("top"), "spacing": .double(2)], [node("spacer")]))
    let z = try wire(ZStack(alignment: .trailing) { Circle() })
    #expect(z == node("zstack", ["alignment": .string("trailing")], [node("shape", ["shape": .string("circle")])]))
}

@Test func stackWithoutOptionsSendsNoProps() throws {
    #expect(try wire(VStack { Text("a") }) == node("vstack", [:], [node("text", ["text": .string("a")])]))
}

@Test func textSendsFontWeightAndMonospacedDigits() throws {
    let raw = try wire(Text("3:14").font(size: 13, weight: .semibold).monospacedDigit())
    #expect(
        raw == node(
            "text",
            [
                "text": .string("3:14"), "font_size": .double(13), "font_weight": .string("semibold"),
                "monospaced_digits": .bool(true),
            ]))
    #expect(try wire(Text("a").fontWeight(.ultraLight)) == node("text", ["text": .string("a"), "font_weight": .string("ultralight")]))
}

@Test func timerTextSendsTimerEndAndNoText() throws {
    let end = NookInstant(unixMicroseconds: 1_700_000_000_000_000)
    #expect(try wire(Text(timerEndingAt: end)) == node("text", ["timer_end": .int(1_700_000_000_000_000)]))
    #expect(
        try wire(Text(timerEndingAtUnixMicroseconds: 42).monospacedDigit())
            == node("text", ["timer_end": .int(42), "monospaced_digits": .bool(true)]))
}

/// SDK countdowns sized like nookctl's (issue 39): a countdown an hour or more long sends the
/// widest text it shows (`TextMetrics.timerPlaceholder(seconds:)`) as `text` beside
/// `timer_end`, so layout reserves `0:00:00` and the renderer does not cut `1:05:00`.
@Test func timerTextOverAnHourSendsItsWidestPlaceholderAsText() throws {
    let start = NookInstant(unixMicroseconds: 1_800_000_000_000_000)
    let end = start + .seconds(65 * 60)
    #expect(
        try wire(Text(timerEndingAt: end, from: start).monospacedDigit())
            == node("text", ["timer_end": .int(end.unixMicroseconds), "text": .string("0:00:00"), "monospaced_digits": .bool(true)]))
    let long = start + .seconds(11 * 3600)
    #expect(try wire(Text(timerEndingAt: long, from: start)) == node("text", ["timer_end": .int(long.unixMicroseconds), "text": .string("00:00:00")]))
    // Under an hour: no text, layout measures `00:00`.
    let short = start + .seconds(59 * 60)
    #expect(try wire(Text(timerEndingAt: short, from: start)) == node("text", ["timer_end": .int(short.unixMicroseconds)]))
    // From now (the clock read when the view is built): 65 minutes ahead.
    let ahead = NookInstant.now() + .seconds(65 * 60)
    #expect(try wire(Text(timerEndingAt: ahead)) == node("text", ["timer_end": .int(ahead.unixMicroseconds), "text": .string("0:00:00")]))
    #expect(
        try wire(Text(timerEndingAtUnixMicroseconds: ahead.unixMicroseconds))
            == node("text", ["timer_end": .int(ahead.unixMicroseconds), "text": .string("0:00:00")]))
    // Instants at Int64's ends: no trap.
    #expect(Text.placeholder(from: .min, to: .max) == "00:00:00")
    #expect(Text.placeholder(from: .max, to: .min) == nil)
}

@Test func imageSendsSymbolOrURI() throws {
    #expect(try wire(Image(systemName: "music.note")) == node("image", ["symbol": .string("music.note")]))
    #expect(try wire(Image(uri: "file:///tmp/cover.png")) == node("image", ["uri": .string("file:///tmp/cover.png")]))
}

@Test func shapesSendShapeCornerRadiusAndColour() throws {
    #expect(try wire(Rectangle().fill("#112233")) == node("shape", ["shape": .string("rect"), "color": .string("#112233")]))
    #expect(
        try wire(RoundedRectangle(cornerRadius: 16).fill(.indigo))
            == node("shape", ["shape": .string("rounded_rect"), "corner_radius": .double(16), "color": .string("#5856D6")]))
    #expect(try wire(Circle()) == node("shape", ["shape": .string("circle")]))
    #expect(
        try wire(Capsule().fill("#11223344")) == node("shape", ["shape": .string("capsule"), "color": .string("#11223344")]))
}

@Test func colourWithOpacityAppendsAlphaByte() {
    #expect(NookColor.indigo.opacity(0.5).hex == "#5856D680")
    #expect(NookColor("#FFFFFF").opacity(1).hex == "#FFFFFFFF")
    #expect(NookColor("#000000").opacity(0).hex == "#00000000")
}

@Test func spacerSendsMinLengthOnlyWhenGiven() throws {
    #expect(try wire(HStack { Spacer(minLength: 4) }).children == [node("spacer", ["min_length": .double(4)])])
    #expect(try wire(HStack { Spacer() }).children == [node("spacer")])
}

@Test func progressSendsValueOrStartAndEndAndStyle() throws {
    #expect(try wire(ProgressView(value: 0.25)) == node("progress", ["value": .double(0.25)]))
    let start = NookInstant(unixMicroseconds: 1_000)
    let raw = try wire(ProgressView(start: start, end: start + .seconds(3)).progressViewStyle(.circular))
    #expect(raw == node("progress", ["start": .int(1_000), "end": .int(3_001_000), "style": .string("circular")]))
}

@Test func progressValueOutsideUnitIntervalIsClamped() throws {
    #expect(try wire(ProgressView(value: 1.2)) == node("progress", ["value": .double(1)]))
    #expect(try wire(ProgressView(value: -3)) == node("progress", ["value": .double(0)]))
    #expect(try wire(ProgressView(value: .nan)) == node("progress", ["value": .double(0)]))
}

@Test func emptyViewYieldsNoNodeAndGroupSpreadsIntoItsStack() throws {
    #expect(EmptyView().viewNodes.isEmpty)
    let raw = try wire(
        HStack {
            EmptyView()
            Group {
                Text("a")
                Text("b")
            }
        })
    #expect(raw.children == [node("text", ["text": .string("a")]), node("text", ["text": .string("b")])])
}

@Test func forEachYieldsOneViewPerElement() throws {
    let raw = try wire(VStack { ForEach(["x", "y", "z"]) { Text($0) } })
    #expect(raw.children.map(\.props["text"]) == [.string("x"), .string("y"), .string("z")])
    #expect(raw.children.allSatisfy { $0.props["identity"] == nil })
}

private struct Row: Identifiable {
    var id: String
    var title: String
}

@Test func forEachWithIdSetsValidIdsAsIdentity() throws {
    let raw = try wire(VStack { ForEach(["a", "b c"], id: \.self) { Text($0) } })
    #expect(raw.children[0].props["identity"] == .string("a"))
    #expect(raw.children[1].props["identity"] == nil, "\"b c\" is not a valid id, so no identity is sent")
    let rows = [Row(id: "first", title: "1"), Row(id: "second", title: "2")]
    let identified = try wire(VStack { ForEach(rows) { Text($0.title) } })
    #expect(identified.children.map(\.props["identity"]) == [.string("first"), .string("second")])
}

@Test func slotRootIsVStackForSeveralViewsAndEmptyZStackForNone() {
    #expect(Group { Text("a"); Text("b") }.viewNode.kind == .vstack)
    #expect(Group { Text("a"); Text("b") }.viewNode.children.count == 2)
    #expect(EmptyView().viewNode == ViewNode(kind: .zstack))
    #expect(Text("a").viewNode.kind == .text)
}

@Test func instantArithmeticIsInMicroseconds() {
    let t = NookInstant(unixSeconds: 1.5)
    #expect(t.unixMicroseconds == 1_500_000)
    #expect((t + .milliseconds(250)).unixMicroseconds == 1_750_000)
    #expect((t - .seconds(1)).unixMicroseconds == 500_000)
    #expect((t + .seconds(2)) - t == .seconds(2))
    #expect(NookInstant.now() > NookInstant(unixSeconds: 1_600_000_000))
}

@Test func foregroundStyleColoursTextAndSymbols() throws {
    #expect(try wire(Text("Focus").foregroundStyle(.orange)) == node("text", ["text": .string("Focus"), "color": .string("#FF9500")]))
    #expect(try wire(Image(systemName: "timer").foregroundStyle("#FF6F61"))
        == node("image", ["symbol": .string("timer"), "color": .string("#FF6F61")]))
}
