import Foundation
import NookBus
import NookTestSupport
import Testing

/// `line_limit` end to end: nookd refuses one out of its range naming it, carries a good one
/// in the plan, and nook-renderer draws at most that many lines, even in a box tall enough for
/// more (so it is the key, not the box, that stops them).
@Suite struct LineLimitOnScreenTests {
    static func card(lineLimit: Int?) -> DBusValue {
        var props: [String: DBusValue] = [
            "text": .string("MMMM MMMM MMMM MMMM MMMM MMMM"), "font_size": .double(30), "width": .double(220), "height": .double(200),
            "color": .string("#00E060"),
        ]
        if let lineLimit { props["line_limit"] = .int32(Int32(lineLimit)) }
        return .structure([.string("text"), .vardict(props), .array(element: "v", [])])
    }

    /// The rows of the screen holding the text's green: from its first to its last.
    static func greenHeight(_ image: RGBImage) -> Int {
        var rows: [Int] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let index = (y * image.width + x) * 3
                let r = Int(image.bytes[index]), g = Int(image.bytes[index + 1]), b = Int(image.bytes[index + 2])
                if r < 40 && abs(g - 0xE0) < 40 && abs(b - 0x60) < 40 { rows.append(y); break }
            }
        }
        guard let first = rows.first, let last = rows.last else { return 0 }
        return last - first + 1
    }

    @Test func aLineLimitIsRefusedOutOfRangeCarriedAndDrawn() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false) { nook in
            let module = try await BusConnection.connect(to: .address(nook.bus.address), description: "line-limit-module")
            defer { Task { await module.close() } }
            func call(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await module.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                          member: member, arguments: arguments, timeout: .seconds(20))
            }
            func spec(_ lineLimit: Int?) -> [String: DBusValue] {
                let mark: DBusValue = .structure([.string("text"), .vardict(["text": .string("L")]), .array(element: "v", [])])
                return ["accessibility_label": .string("Lines"), "relevance": .double(100), "compact_leading": mark,
                        "compact_trailing": mark, "minimal": mark, "expanded": Self.card(lineLimit: lineLimit)]
            }
            try await call("Register", [.string("lines"), .vardict([:])])
            for bad in [0, 101] {
                do {
                    try await call("StartActivity", [.string("card"), .vardict(spec(bad))])
                    Issue.record("line_limit \(bad) was accepted")
                } catch {
                    #expect("\(error)".contains("expanded.line_limit"), "line_limit \(bad): \(error)")
                }
            }
            try await call("StartActivity", [.string("card"), .vardict(spec(1))])
            let serial = try await nook.open(["onto": .string("activity"), "module": .string("lines"), "activity": .string("card")])
            _ = try await nook.waitForPlan(serial: serial)
            try await nook.waitUntilSettled(serial: serial)
            let limited = try await nook.xvfb.screenshot()
            await EmptyNookOnScreenTests.keep(limited, as: "line-limit-1")
            let oneLine = Self.greenHeight(limited)

            // The same card without the limit: the box's 200 pt hold several lines.
            try await call("UpdateActivity", [.string("card"), .vardict(["expanded": Self.card(lineLimit: nil)])])
            let updated = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                ((try? await nook.state().serial) ?? 0) > serial
            }
            #expect(updated, "the update made no plan:\n\(nook.logs)")
            let next = try await nook.state().serial
            _ = try await nook.waitForPlan(serial: next)
            try await nook.waitUntilSettled(serial: next)
            let all = try await nook.xvfb.screenshot()
            await EmptyNookOnScreenTests.keep(all, as: "line-limit-none")
            let unlimited = Self.greenHeight(all)

            // Capitals of a 30 pt font: one line's green is under 30 rows; two lines' over 40.
            #expect(oneLine > 10 && oneLine < 36, "line_limit 1 drew \(oneLine) rows of text\n\(nook.logs)")
            #expect(unlimited > 50, "without a limit the card drew \(unlimited) rows of text\n\(nook.logs)")
        }
    }
}
