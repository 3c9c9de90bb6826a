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
            try Self.set(device, "6")
            #expect(await eventually { (try? await control.getState())?["module"] == .string("brightness") }, "\(system.log)")
            #expect(try await control.getState()["presentation"] == .string("peek"))
            // 6 of 15: the peek's scene says 40%.
            let peek = try await control.previewPlan(action: "peek", options: ["module": .string("brightness"), "activity": .string("brightness")])
            #expect("\(peek)".contains("40%") && "\(peek)".contains("Brightness"), "\(peek)")
            // 5 s (--osd-seconds) after the last change it is gone.
            #expect(await eventually { (try? await control.getState())?["module"] != .string("brightness") }, "\(system.log)")
            #expect(await system.stop() == 0, "\(system.log)")
            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
