import FoundationEssentials
import Glibc
import NookBus
import NookCommandLine
import NookFiles
import NookModuleAPI
import NookNotifications
import NookSystem
import NookVersion

// nook-system: what the system tells a person, in the nook, with no module to write. One
// process for the system bridges (docs/system.md says why): the `power` module, from UPower
// on the system bus, the `brightness` module, from the backlight in sysfs, the `volume` module,
// from the sound server (libpulse: PipeWire or PulseAudio), the `privacy` module (the
// microphone in use, from the sound server; a camera or the screen in use, from PipeWire's
// registry), and the `progress` module, from apps' LauncherEntry signals on the session bus
// and KDE apps' jobs (as their job view server, when Plasma's shell is not it).

/// nook-system's entry point: the `nook-system` executable and the multi-call `nook-programs` both call it.
public enum Program {
    public static func main() async -> Never {
        let commandLine = CommandLineInterface(
            program: "nook-system",
            usage: ["[--show-seconds S] [--osd-seconds S] [--backlight-dir DIR] [--no-power] [--no-brightness] [--no-volume] [--no-privacy] [--no-progress] [--address ADDR] [--system-address ADDR]", "--help | --version"],
            about: """
                The system's activities in the nook: a peek when a charger is plugged in or unplugged,
                and when the battery turns low or critical (UPower); the screen's brightness and the
                sound's volume as they change (the backlight; PipeWire or PulseAudio); a mark while an
                app records from the microphone, captures a camera or shares the screen (PipeWire);
                apps' downloads and copies (LauncherEntry; KDE's job views). Nothing runs until
                something changes.
                """,
            options: [
                .value("--show-seconds", "S", help: "how long a charger's news stays in the nook, 1...60 seconds (default 4); a low battery stays until a charger comes"),
                .value("--osd-seconds", "S", help: "how long the brightness or the volume stays in the nook after it last changed, 0.5...10 seconds (default 1.5)"),
                .value("--backlight-dir", "DIR", help: "where the backlights are (default /sys/class/backlight)"),
                .flag("--no-power", help: "leave the battery and the charger out"),
                .flag("--no-brightness", help: "leave the brightness out (when a key binding runs nookctl osd brightness)"),
                .flag("--no-volume", help: "leave the volume out (when a key binding runs nookctl osd volume)"),
                .flag("--no-privacy", help: "leave the microphone, camera and screen-sharing marks out"),
                .flag("--no-progress", help: "leave apps' progress (LauncherEntry and KDE's job views) out"),
                .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus (where nookd is)"),
                .value("--system-address", "ADDR", help: "a D-Bus address to use instead of the system bus (where UPower is)"),
            ])

        @Sendable func say(_ line: String) { StandardStream.output.write("nook-system: \(line)\n") }

        let parsed = commandLine.parseOrExit()
        let showFor = Duration.milliseconds(Int64((parsed.number("--show-seconds", in: 1...60) ?? 4) * 1000))
        let sessionAddress: NookModuleAddress = parsed.text("--address").map { .bus($0) } ?? .session
        let sessionBus: BusAddress = parsed.text("--address").map { .address($0) } ?? .session
        // libpulse waits for a sound server on the session bus it finds in the environment (the
        // `org.pulseaudio.Server` name): with --address, that bus is this one.
        if let address = parsed.text("--address") { setenv("DBUS_SESSION_BUS_ADDRESS", address, 1) }
        let systemAddress = parsed.text("--system-address")
            ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "unix:path=/run/dbus/system_bus_socket"

        let backlights = parsed.text("--backlight-dir") ?? "/sys/class/backlight"
        let osdFor = Duration.milliseconds(Int64((parsed.number("--osd-seconds", in: 0.5...10) ?? 1.5) * 1000))
        let followsPower = !parsed.flag("--no-power"), followsBrightness = !parsed.flag("--no-brightness")
        let followsProgress = !parsed.flag("--no-progress"), followsVolume = !parsed.flag("--no-volume")
        let followsPrivacy = !parsed.flag("--no-privacy")

        // The power module owns the process's life (`NookModule.run`: signals, the end); the
        // brightness module is a second connection beside it, under its own id.
        let power = NookModuleConfiguration(id: "power", displayName: "Power", version: NookVersion.number)
        let exit = await NookModule.run(power, address: sessionAddress) { module in
            if followsBrightness {
                let brightness = try await NookModule.connect(
                    NookModuleConfiguration(id: "brightness", displayName: "Brightness", version: NookVersion.number), address: sessionAddress)
                _ = await BrightnessBridge.start(directory: backlights, module: brightness, showFor: osdFor, log: say)
            }
            let volume = followsVolume ? VolumeBridge(module: try await NookModule.connect(
                NookModuleConfiguration(id: "volume", displayName: "Volume", version: NookVersion.number), address: sessionAddress), showFor: osdFor, log: say) : nil
            let privacy = followsPrivacy ? PrivacyBridge(module: try await NookModule.connect(
                NookModuleConfiguration(id: "privacy", displayName: "Privacy", version: NookVersion.number), address: sessionAddress), log: say) : nil
            let sound = SoundBridges.start(volume: volume, privacy: privacy, log: say)
            defer { sound?.stop() }
            let video = privacy.flatMap { SoundBridges.startVideo(privacy: $0, log: say) }
            defer { video?.stop() }
            if followsProgress {
                let progress = try await NookModule.connect(
                    NookModuleConfiguration(id: "progress", displayName: "Progress", version: NookVersion.number), address: sessionAddress)
                let session = try await BusConnection.connect(to: sessionBus, description: "launcher entries")
                let directories = DesktopEntry.directories()
                _ = try await LauncherProgressBridge.start(bus: session, module: progress, names: { DesktopEntry.find($0, in: directories)?.name }, log: say)
                say("following apps' progress (LauncherEntry)")
                // KDE apps report their jobs to a job view server instead (docs/system/progress.md).
                _ = try await JobViewBridge.start(bus: session, module: progress, names: { DesktopEntry.find($0, in: directories)?.name }, log: say)
            }
            guard followsPower else {
                // Nothing else to follow: wait for the end (a signal cancels this).
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(86_400)) }
                return
            }
            let system = try await BusConnection.connect(to: .address(systemAddress), description: "system bus")
            _ = try await PowerBridge.start(system: system, module: module, showFor: showFor, log: say)
            say("following power on \(systemAddress)")
            await system.waitUntilClosed()
            say("lost the system bus")
        }
        say("exit: \(exit)")
        if case .failed(let error) = exit {
            StandardStream.error.write("nook-system: \(error)\n")
            Glibc.exit(1)
        }
        Glibc.exit(0)
    }
}
