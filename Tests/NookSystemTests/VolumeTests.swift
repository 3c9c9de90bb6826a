import Foundation
import NookBus
import NookCore
import NookSystem
import NookTestSupport
import Synchronization
import Testing

/// Issue 43, parts 2 and 3: the volume and the microphone in use, from the sound server. PipeWire, WirePlumber and pipewire-pulse
/// run for the test with a runtime directory of its own and a null sink as the default output
/// (no sound card needed); `pactl` changes it, as keys, mixers and scripts do.
@Suite(.serialized) struct VolumeTests {
    /// The sound server's three processes, ended by pid.
    final class SoundServer: Sendable {
        let processes: [PackageProcess]
        let environment: [String: String]

        init(processes: [PackageProcess], environment: [String: String]) {
            self.processes = processes
            self.environment = environment
        }

        /// - Parameter pulse: whether to run pipewire-pulse and make the null sink the default
        ///   output (the volume and microphone tests); without, PipeWire and WirePlumber alone.
        static func start(bus: PrivateBus, in directory: URL, pulse: Bool = true) async throws -> SoundServer {
            let runtime = directory.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // WirePlumber keeps state (the default nodes) under XDG_STATE_HOME: the test's own, so
            // two tests' servers running at once share nothing.
            let extra: [String: String?] = ["XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": bus.address, "PULSE_SERVER": nil,
                                            "XDG_STATE_HOME": directory.appendingPathComponent("xdg-state").path,
                                            "XDG_CONFIG_HOME": directory.appendingPathComponent("xdg-config").path]
            var processes: [PackageProcess] = []
            for program in ["/usr/bin/pipewire", "/usr/bin/wireplumber"] + (pulse ? ["/usr/bin/pipewire-pulse"] : []) {
                processes.append(try PackageProcess(program, [], logDirectory: directory, environment: extra))
                // WirePlumber and the PulseAudio server connect to PipeWire's socket.
                if program.hasSuffix("/pipewire") {
                    _ = await eventually { FileManager.default.fileExists(atPath: runtime.appendingPathComponent("pipewire-0").path) }
                }
            }
            var environment = ProcessInfo.processInfo.environment
            for (key, value) in extra { environment[key] = value }
            let server = SoundServer(processes: processes, environment: environment)
            guard pulse else {
                // WirePlumber is up once it is PipeWire's client (it links what tests start).
                guard await eventually(timeout: .seconds(30), {
                    (try? await Tools.run("/usr/bin/pw-cli", ["ls", "Client"], environment: server.environment))?.stdout.contains("WirePlumber") == true
                }) else {
                    await server.stop()
                    throw TestSupportError("WirePlumber did not start: \(processes.map { "\($0.log)" }.joined(separator: "\n"))")
                }
                return server
            }
            guard await eventually(timeout: .seconds(30), { (try? await server.pactl(["info"]))?.status == 0 }) else {
                let info = try? await server.pactl(["info"])
                await server.stop()
                let logs = processes.map { "\($0.log)" }.joined(separator: "\n")
                throw TestSupportError("the sound server did not start: pactl info: \(info?.status ?? -1) \(info?.stderr ?? "")\n\(logs)\n\(try FileManager.default.contentsOfDirectory(atPath: runtime.path))")
            }
            let load = try await server.pactl(["load-module", "module-null-sink", "sink_name=nook_test"])
            guard load.status == 0 else { throw TestSupportError("pactl load-module: \(load.stderr)") }
            // The sink is made a moment after load-module answers (under load, "Not supported"
            // until then): each setting is tried until it takes.
            for arguments in [["set-default-sink", "nook_test"], ["set-sink-volume", "nook_test", "100%"], ["set-sink-mute", "nook_test", "0"]] {
                guard await eventually(timeout: .seconds(30), { (try? await server.pactl(arguments))?.status == 0 }) else {
                    throw TestSupportError("pactl \(arguments): \((try? await server.pactl(arguments))?.stderr ?? "")")
                }
            }
            return server
        }

        func pactl(_ arguments: [String]) async throws -> Tools.Result {
            try await Tools.run("/usr/bin/pactl", arguments, environment: environment)
        }

        /// Signals each (a test that failed half-way only gets this, from its `defer`).
        func signal() {
            for process in processes.reversed() { process.signal(SIGKILL) }
        }

        /// Ends each and waits for it.
        /// Ends each and waits for it. SIGKILL: they are the test's scenery, and WirePlumber
        /// took 30 s to leave on SIGTERM here.
        func stop() async {
            for process in processes.reversed() { _ = await process.stop(SIGKILL) }
        }
    }

    /// Whether the nook peeks at the volume showing `text` (GetState, then the peek's scene).
    static func peeksAtTheVolume(_ client: BusConnection, showing text: String) async -> Bool {
        let control = NookControlProxy(client)
        return await eventually {
            let state = try? await control.getState()
            guard state?["module"] == .string("volume"), state?["presentation"] == .string("peek"),
                  let peek = try? await control.previewPlan(action: "peek", options: ["module": .string("volume"), "activity": .string("volume")])
            else { return false }
            return "\(peek)".contains("Volume") && "\(peek)".contains(text)
        }
    }

    @Test func anAppRecordingFromAMicrophoneShowsAMarkNamingItUntilItStops() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let sound = try await SoundServer.start(bus: bus, in: temp.url)
            defer { sound.signal() }
            // A microphone of the test's own: a virtual source (the null sink's monitor is none).
            let source = try await sound.pactl(["load-module", "module-null-sink", "media.class=Audio/Source/Virtual", "sink_name=nook_mic"])
            #expect(source.status == 0, "\(source.stderr)")
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess(
                "nook-system", ["--address", bus.address, "--no-power", "--no-brightness", "--no-progress", "--no-volume"],
                logDirectory: temp.url, environment: ["XDG_RUNTIME_DIR": sound.environment["XDG_RUNTIME_DIR"], "PULSE_SERVER": nil])
            #expect(await eventually { system.log.contains("following the volume of the default output") }, "\(system.log)")
            #expect(occurrences(of: "scene: activity_started privacy/microphone", in: nookd.log) == 0)

            // A recorder, a process of its own: the mark comes, naming it, and the nook peeks.
            let recorder = try PackageProcess("/usr/bin/parecord", ["-d", "nook_mic", "--raw", "/dev/null"], logDirectory: temp.url,
                                              environment: ["XDG_RUNTIME_DIR": sound.environment["XDG_RUNTIME_DIR"], "PULSE_SERVER": nil])
            #expect(await eventually { occurrences(of: "scene: activity_started privacy/microphone", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")
            #expect(await eventually { system.log.contains("the microphone is in use by parecord") }, "\(system.log)")
            #expect(await eventually { nookd.storedActivities(of: "privacy")["microphone"]?.contains("In use by parecord") == true },
                    "\(nookd.storedActivities(of: "privacy"))")

            // It stops: the mark goes at once.
            // (parecord lets SIGTERM wait; the stream goes with the process either way.)
            _ = await recorder.stop(SIGKILL)
            #expect(await eventually { occurrences(of: "scene: activity_ended privacy/microphone", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")

            // A PipeWire client of its own (no PulseAudio library): the same, by its name.
            let native = try PackageProcess("/usr/bin/pw-record", ["--target", "nook_mic", temp.url.appendingPathComponent("recorded.wav").path],
                                            logDirectory: temp.url, environment: ["XDG_RUNTIME_DIR": sound.environment["XDG_RUNTIME_DIR"]])
            #expect(await eventually { occurrences(of: "scene: activity_started privacy/microphone", in: nookd.log) == 2 }, "\(system.log)\n\(native.log)")
            #expect(await eventually { system.log.contains("the microphone is in use by pw-record") }, "\(system.log)")
            _ = await native.stop(SIGKILL)
            #expect(await eventually { occurrences(of: "scene: activity_ended privacy/microphone", in: nookd.log) == 2 }, "\(system.log)\n\(nookd.log)")

            #expect(await system.stop() == 0, "\(system.log)")
            #expect(await nookd.stop() == 0, "\(nookd.log)")
            await sound.stop()
        }
    }

    /// A sound server that starts after nook-system (a session whose PipeWire comes later, or
    /// restarts) is waited for on the bus nook-system was given, and followed once it is there.
    @Test func aSoundServerThatStartsLaterIsFollowed() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let runtime = temp.url.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess(
                "nook-system", ["--address", bus.address, "--no-power", "--no-brightness", "--no-privacy"],
                logDirectory: temp.url, environment: ["XDG_RUNTIME_DIR": runtime.path, "PULSE_SERVER": nil, "DBUS_SESSION_BUS_ADDRESS": nil])
            // Logged after the sound server's watch has started, waiting.
            #expect(await eventually { system.log.contains("following apps' progress") }, "\(system.log)")
            #expect(!system.log.contains("following the volume"))

            let sound = try await SoundServer.start(bus: bus, in: temp.url)
            defer { sound.signal() }
            #expect(await eventually(timeout: .seconds(60)) { system.log.contains("following the volume of the default output") }, "\(system.log)")
            _ = try await sound.pactl(["set-sink-volume", "@DEFAULT_SINK@", "40%"])
            #expect(await eventually { occurrences(of: "scene: activity_started volume/volume", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")

            #expect(await system.stop() == 0, "\(system.log)")
            #expect(await nookd.stop() == 0, "\(nookd.log)")
            await sound.stop()
        }
    }

    @Test func thePureDisplayNamesTheLevelAndMute() {
        let quiet = VolumeBridge.display(PulseVolume(level: 0.2, muted: false))
        #expect(quiet.title == "Volume" && quiet.symbol == "audio-volume-low-symbolic" && quiet.valueText == "20%")
        let loud = VolumeBridge.display(PulseVolume(level: 1.4, muted: false))
        #expect(loud.level == 1 && loud.symbol == "audio-volume-high-symbolic", "a boost above 100% shows as full")
        let muted = VolumeBridge.display(PulseVolume(level: 0.4, muted: true))
        #expect(muted.title == "Muted" && muted.symbol == "audio-volume-muted-symbolic" && muted.valueText == "40%")
        #expect(PulseVolume(level: .nan, muted: false).level == 0)
    }

    @Test func aVolumeChangeFromAnywherePeeksAndQuickChangesReplaceIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let sound = try await SoundServer.start(bus: bus, in: temp.url)
            defer { sound.signal() }
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess(
                "nook-system", ["--address", bus.address, "--no-power", "--no-brightness", "--no-progress", "--no-privacy", "--osd-seconds", "10"],
                logDirectory: temp.url, environment: ["XDG_RUNTIME_DIR": sound.environment["XDG_RUNTIME_DIR"], "PULSE_SERVER": nil])
            let client = try await BusConnection.connect(to: .address(bus.address))
            #expect(await eventually { system.log.contains("following the volume of the default output") }, "\(system.log)")
            // Where things stand at start is not news.
            #expect(occurrences(of: "scene: activity_started volume/volume", in: nookd.log) == 0)

            _ = try await sound.pactl(["set-sink-volume", "@DEFAULT_SINK@", "40%"])
            #expect(await eventually { occurrences(of: "scene: activity_started volume/volume", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")
            #expect(await eventually { nookd.storedActivities(of: "volume")["volume"]?.contains("40%") == true },
                    "\(nookd.storedActivities(of: "volume"))")
            #expect(await Self.peeksAtTheVolume(client, showing: "40%"), "no peek: \(nookd.log)")

            // Ten quick changes: one display, replaced in place, ending at the last level.
            for percent in 41...50 { _ = try await sound.pactl(["set-sink-volume", "@DEFAULT_SINK@", "\(percent)%"]) }
            #expect(await eventually { nookd.storedActivities(of: "volume")["volume"]?.contains("50%") == true },
                    "\(nookd.storedActivities(of: "volume"))")
            // Replaced in place: a second display starts only after the first ended (a slow
            // machine may outlast --osd-seconds between two calls).
            let log = nookd.log
            #expect(occurrences(of: "scene: activity_started volume/volume", in: log) == 1 + occurrences(of: "scene: activity_ended volume/volume", in: log),
                    "\(log)")

            // Mute shows as such.
            _ = try await sound.pactl(["set-sink-mute", "@DEFAULT_SINK@", "1"])
            #expect(await eventually { nookd.storedActivities(of: "volume")["volume"]?.contains("Muted") == true },
                    "\(nookd.storedActivities(of: "volume"))")

            #expect(await system.stop() == 0, "\(system.log)")
            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
            await sound.stop()
        }
    }
}
