import Foundation
import Glibc
import NookBus
import NookCore
import NookSystem
import NookTestSupport
import Synchronization
import Testing

/// The screen's brightness in the nook (issue 43, part 2): the backlight's files read safely,
/// every write to `brightness` seen through inotify, and the real nook-system showing it
/// through the real nookd. A directory of plain files stands for /sys/class/backlight.
@Suite(.serialized) struct BrightnessTests {
    /// `directory/name` with `max_brightness` and `brightness`.
    static func backlight(_ directory: URL, _ name: String, max: String, value: String) throws -> URL {
        let device = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try max.write(to: device.appendingPathComponent("max_brightness"), atomically: false, encoding: .utf8)
        try value.write(to: device.appendingPathComponent("brightness"), atomically: false, encoding: .utf8)
        return device
    }

    /// Written in place, as the kernel's attribute is (not replaced by a rename).
    static func set(_ device: URL, _ value: String) throws {
        let handle = try FileHandle(forWritingTo: device.appendingPathComponent("brightness"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data((value + "\n").utf8))
        try handle.close()
    }

    @Test func aLevelIsBrightnessOverItsMaximumAndEveryValueIsChecked() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        _ = try Self.backlight(temp.url, "good", max: "1000\n", value: "400\n")
        _ = try Self.backlight(temp.url, "over", max: "100", value: "250")
        _ = try Self.backlight(temp.url, "zero", max: "0", value: "0")
        _ = try Self.backlight(temp.url, "words", max: "lots", value: "5")
        let fifo = try Self.backlight(temp.url, "fifo", max: "100", value: "1")
        try FileManager.default.removeItem(at: fifo.appendingPathComponent("brightness"))
        #expect(mkfifo(fifo.appendingPathComponent("brightness").path, 0o600) == 0)
        let directory = temp.url.path
        #expect(BacklightWatch.level(directory: directory, device: "good") == 0.4)
        #expect(BacklightWatch.level(directory: directory, device: "over") == 1)
        #expect(BacklightWatch.level(directory: directory, device: "zero") == nil)
        #expect(BacklightWatch.level(directory: directory, device: "words") == nil)
        // A FIFO is refused unread (a read would wait for a writer forever).
        #expect(BacklightWatch.level(directory: directory, device: "fifo") == nil)
        #expect(BacklightWatch.level(directory: directory, device: "missing") == nil)
        #expect(BacklightWatch(directory: temp.url.appendingPathComponent("none").path, onChange: { _ in }) == nil)
    }

    @Test func everyWriteIsSeenOnceAndOnlyANewLevelIsNews() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let device = try Self.backlight(temp.url, "intel_backlight", max: "1000", value: "500")
        let seen = Mutex<[Double]>([])
        let watch = try #require(BacklightWatch(directory: temp.url.path) { level in seen.withLock { $0.append(level.level) } })
        defer { watch.stop() }
        #expect(watch.devices == ["intel_backlight"])
        try Self.set(device, "400")
        #expect(await eventually { seen.withLock { $0 } == [0.4] }, "\(seen.withLock { $0 })")
        try Self.set(device, "400")
        try Self.set(device, "750")
        #expect(await eventually { seen.withLock { $0 } == [0.4, 0.75] }, "the same level again is no news: \(seen.withLock { $0 })")
    }

    /// Whether the nook peeks at the brightness with its level. The display lasts
    /// --osd-seconds after the last change, which a loaded machine may outlast between two
    /// checks: while it is not showing, the level changes again (6 and 7 of 15 in turn: 40%
    /// and 47%), so the check never races the timer. (A function of its own: Swift 6.3.1
    /// mixed this closure up with the test's others.)
    static func peeksAtTheBrightness(_ control: NookControlProxy, device: URL) async -> Bool {
        let value = Mutex(6)
        return await eventually {
            let state = try? await control.getState()
            guard state?["module"] == .string("brightness"), state?["presentation"] == .string("peek"),
                  let peek = try? await control.previewPlan(action: "peek", options: ["module": .string("brightness"), "activity": .string("brightness")])
            else {
                let next = value.withLock { $0 = $0 == 6 ? 7 : 6; return $0 }
                try? Self.set(device, String(next))
                return false
            }
            return "\(peek)".contains("Brightness") && ("\(peek)".contains("40%") || "\(peek)".contains("47%"))
        }
    }

    @Test func nookSystemShowsTheBrightnessAndItGoesByItself() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let device = try Self.backlight(temp.url.appendingPathComponent("backlight"), "acpi_video0", max: "15", value: "15")
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess(
                "nook-system", ["--address", bus.address, "--no-power", "--osd-seconds", "5", "--backlight-dir", temp.url.appendingPathComponent("backlight").path],
                logDirectory: temp.url)
            let client = try await BusConnection.connect(to: .address(bus.address))
            let control = NookControlProxy(client)
            #expect(await eventually { system.log.contains("following the backlight of acpi_video0") }, "\(system.log)")
            let shown = await Self.peeksAtTheBrightness(control, device: device)
            #expect(shown, "the brightness never peeked: \(system.log)")
            // 5 s (--osd-seconds) after the last change it is gone.
            #expect(await eventually { (try? await control.getState())?["module"] != .string("brightness") }, "\(system.log)")
            #expect(await system.stop() == 0, "\(system.log)")
            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
