import Foundation
import NookBus
import NookTestSupport
import Testing

/// A module's text colour (`color`, the SDK's `.foregroundStyle`) is carried in the plan and
/// drawn on screen: a module that paints its title green gets green pixels in the nook.
@Suite struct TextColourOnScreenTests {
    static let green = (red: 0x00, green: 0xE0, blue: 0x60)

    static func text(_ text: String, size: Double, color: String? = nil) -> DBusValue {
        var props: [String: DBusValue] = ["text": .string(text), "font_size": .double(size)]
        if let color { props["color"] = .string(color) }
        return .structure([.string("text"), .vardict(props), .array(element: "v", [])])
    }

    /// Pixels of the title's colour (glyph interiors are drawn at full coverage).
    static func greenPixels(_ image: RGBImage) -> Int {
        var count = 0
        for index in 0..<(image.width * image.height) {
            let r = Int(image.bytes[index * 3]), g = Int(image.bytes[index * 3 + 1]), b = Int(image.bytes[index * 3 + 2])
            if abs(r - green.red) < 24 && abs(g - green.green) < 24 && abs(b - green.blue) < 24 { count += 1 }
        }
        return count
    }

    @Test func aTextColourFromTheModuleIsDrawnOnScreen() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            let module = try await BusConnection.connect(to: .address(nook.bus.address), description: "paint-module")
            defer { Task { await module.close() } }
            func call(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await module.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                          member: member, arguments: arguments, timeout: .seconds(20))
            }
            try await call("Register", [.string("paint"), .vardict([:])])
            let hex = String(format: "#%02X%02X%02X", Self.green.red, Self.green.green, Self.green.blue)
            try await call("StartActivity", [.string("swatch"), .vardict([
                "accessibility_label": .string("Swatch"), "relevance": .double(100),
                "compact_leading": Self.text("S", size: 13), "compact_trailing": Self.text("1", size: 13),
                "minimal": Self.text("S", size: 13),
                "expanded": Self.text("MMMMMM", size: 40, color: hex),
            ])])
            let before = try await nook.xvfb.screenshot()
            #expect(Self.greenPixels(before) == 0, "green on screen before the module drew it")

            let serial = try await nook.open(["onto": .string("activity"), "module": .string("paint"), "activity": .string("swatch")])
            let plan = try await nook.waitForPlan(serial: serial)
            try await nook.waitUntilSettled(serial: serial)
            let after = try await nook.xvfb.screenshot()
            #expect(Self.greenPixels(after) > 200, "no green title on screen (\(Self.greenPixels(after)) px), plan: \(plan.text)\n\(nook.logs)")
        }
    }
}
