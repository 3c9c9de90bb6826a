import Foundation
import NookBus
import NookTestSupport

/// Issue 42's footprint figures, from the binaries of this release build:
/// - installed size: `make install-files` with `RUNTIME=private` (what `make install` does)
///   into a scratch DESTDIR, every installed byte counted; goal at most 60 MB;
/// - a typical session's memory: nookd, nook-renderer (on a private Xvfb), nook-mpris,
///   nook-notifications and nook-system on a private bus (the four as links to the one
///   multi-call binary, `nook-programs`, as installed), each with its work to do (a track playing is not
///   needed: the bridges idle as they do all day), 3 s after the last one is up. The goal's
///   measure (at most 64 MB together) is the session's resident pages with each physical page
///   counted once (`ResidentPages`: what the session takes of the machine's memory; root
///   only). Also reported: RSS summed (each process counts every page it maps, the shared
///   binary's, the runtime's and the system libraries', once per process: the measure before
///   session 27) and PSS summed (shared pages split between all the processes sharing them,
///   Nook's or not).
func runFootprintBenchmark() async throws -> [Figure] {
    print("footprint: make install's size and a typical session's memory (release build)")
    var figures: [Figure] = []
    if let size = try await installedBytes(bin: try BenchProcess.buildDirectory()) {
        let megabytes = Double(size) / 1_000_000
        print("  make install (private runtime, stripped): \(fmt(megabytes)) MB")
        figures.append(Figure(name: "footprint: make install size", value: megabytes, unit: "MB", goal: "<= 60 MB (issue 42)", ratio: nil,
                              met: megabytes <= 60))
    }
    let session = try await sessionMemory(bin: try BenchProcess.programsDirectory())
    let together = session.uniqueMiB.map { "\(fmt($0)) MiB with each page counted once" } ?? "each page once: not measured (needs root)"
    print("  typical session (\(session.programs.joined(separator: ", "))): \(together); RSS summed \(fmt(session.rssMiB)) MiB, PSS \(fmt(session.pssMiB)) MiB")
    for (program, rss) in session.each { print("    \(program.padding(20)) RSS \(fmt(rss)) MiB") }
    if let unique = session.uniqueMiB {
        figures.append(Figure(name: "footprint: typical session memory, each page once (\(session.programs.count) programs)", value: unique, unit: "MiB",
                              goal: "<= 64 MB together (issue 42)", ratio: nil, met: unique * 1.048576 <= 64))
    }
    figures.append(Figure(name: "footprint: typical session RSS summed", value: session.rssMiB, unit: "MiB",
                          goal: "informational (a shared page once per process)", ratio: nil, met: nil))
    figures.append(Figure(name: "footprint: typical session PSS", value: session.pssMiB, unit: "MiB", goal: "informational", ratio: nil, met: nil))
    for idle in session.idle {
        print("    \(idle.program.padding(20)) idle: \(fmt(idle.cpuPercent)) % CPU, \(fmt(idle.wakeupsPerSecond)) wakeups/s over \(Int(idleWindow)) s")
        // Every Swift process wakes once a second for libdispatch's worker-pool monitor (its
        // internal workqueue on Linux arms it unconditionally); nothing of ours may add to it.
        figures.append(Figure(name: "idle wakeups/s, \(idle.program)", value: idle.wakeupsPerSecond, unit: "/s",
                              goal: "<= 1.25: the runtime's own 1/s and nothing of ours (waybar 0.5)", ratio: nil,
                              met: idle.wakeupsPerSecond <= 1.25))
        figures.append(Figure(name: "idle CPU, \(idle.program)", value: idle.cpuPercent, unit: "%", goal: "<= 0.05 % (waybar 0.03 %)", ratio: nil,
                              met: idle.cpuPercent <= 0.05))
    }
    return figures
}

/// Bytes `make install-files RUNTIME=private` lays down; nil (said why) when the checkout's
/// install script is not beside this build.
private func installedBytes(bin: URL) async throws -> Int? {
    // .build/<triple>/release -> the checkout.
    let checkout = bin.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    guard FileManager.default.isExecutableFile(atPath: checkout.appendingPathComponent("scripts/install.sh").path) else {
        print("  installed size not measured: no scripts/install.sh at \(checkout.path)")
        return nil
    }
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-install-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let result = try await Tools.run("make", ["-s", "-C", checkout.path, "install-files", "BIN=\(bin.path)", "DESTDIR=\(root.path)",
                                              "PREFIX=/usr", "RUNTIME=private"])
    guard result.status == 0 else {
        print("  installed size not measured: make install-files failed: \(result.stderr.prefix(400))")
        return nil
    }
    var total = 0
    let walker = FileManager.default.enumerator(atPath: root.path)
    while let path = walker?.nextObject() as? String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: root.path + "/" + path)
        if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
    }
    return total
}

private struct SessionMemory {
    var programs: [String] = []
    var each: [(String, Double)] = []
    var rssMiB = 0.0
    var pssMiB = 0.0
    /// The session's resident pages, each physical page once (nil: not root).
    var uniqueMiB: Double?
    /// Each program at rest with nothing showing, over `idleWindow` seconds.
    var idle: [(program: String, cpuPercent: Double, wakeupsPerSecond: Double)] = []
}

/// How long the session is watched at rest.
private let idleWindow = 30.0

/// Per thread: CPU time (ns, `schedstat`) and voluntary context switches (each a sleep ended
/// by a wakeup). Threads come and go (the dispatch pool's idle workers exit): a window
/// compares the threads alive at both ends and counts new ones whole.
private func threadCounters(_ pid: Int32) -> [String: (cpu: Double, wakeups: Int)] {
    let tasks = "/proc/\(pid)/task"
    var counters: [String: (cpu: Double, wakeups: Int)] = [:]
    for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
        let status = ProcFile.text("\(tasks)/\(thread)/status") ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
        let schedstat = ProcFile.text("\(tasks)/\(thread)/schedstat") ?? ""
        counters[thread] = (Double(schedstat.split(separator: " ").first ?? "0") ?? 0,
                            Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "0") ?? 0)
    }
    return counters
}

/// CPU (ns) and wakeups between two readings of `threadCounters`.
private func difference(from start: [String: (cpu: Double, wakeups: Int)], to end: [String: (cpu: Double, wakeups: Int)]) -> (cpu: Double, wakeups: Int) {
    var cpu = 0.0, wakeups = 0
    for (thread, now) in end {
        let then = start[thread] ?? (0, 0)
        cpu += max(0, now.cpu - then.cpu)
        wakeups += max(0, now.wakeups - then.wakeups)
    }
    return (cpu, wakeups)
}

private func sessionMemory(bin: URL) async throws -> SessionMemory {
    let bus = try PrivateBus()
    defer { bus.stop() }
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: state) }
    let environment = ["XDG_RUNTIME_DIR": state.path, "XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path, "HOME": state.path]
    // The sound server a desktop runs, when installed, so nook-system's volume and privacy
    // bridges idle connected to it, as they do all day. Not counted: it is not Nook's. Ended
    // with SIGKILL (WirePlumber takes 30 s to leave on SIGTERM here).
    var soundServer: [BenchProcess] = []
    defer { for process in soundServer.reversed() { process.stop(signal: SIGKILL) } }
    let soundPrograms = ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/pipewire-pulse"]
    if soundPrograms.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) {
        for program in soundPrograms {
            soundServer.append(try BenchProcess(program, [], environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }))
            if program.hasSuffix("/pipewire") { _ = await eventually { FileManager.default.fileExists(atPath: state.path + "/pipewire-0") } }
        }
        _ = await eventually { FileManager.default.fileExists(atPath: state.path + "/pulse/native") }
        print("  (with PipeWire, WirePlumber and pipewire-pulse running: nook-system's volume and privacy bridges connected)")
    } else {
        print("  (no PipeWire: nook-system's sound and video bridges wait for one; apt install pipewire wireplumber pipewire-pulse)")
    }
    var started: [(String, BenchProcess)] = []
    defer { for (_, process) in started.reversed() { process.stop() } }
    let watcher = try await BusConnection.connect(to: .address(bus.address))
    defer { Task { await watcher.close() } }
    started.append(("nookd", try BenchProcess(bin.appendingPathComponent("nookd").path, ["--address", bus.address, "--state-dir", state.path + "/nookd"],
                                              environment: environment)))
    _ = try await eventually { try await watcher.nameOwner(of: "org.nook.Nook1") != nil }
    var display: XvfbDisplay?
    defer { display?.stop() }
    if (try? Tools.path(of: "Xvfb")) != nil {
        display = try XvfbDisplay(width: 1920, height: 1080)
        started.append(("nook-renderer", try BenchProcess(bin.appendingPathComponent("nook-renderer").path, ["--address", bus.address],
                                                          environment: environment.merging(["DISPLAY": display!.display, "GDK_BACKEND": "x11"]) { $1 })))
    } else {
        print("  (no Xvfb: the session is measured without nook-renderer; apt install xvfb)")
    }
    started.append(("nook-mpris", try BenchProcess(bin.appendingPathComponent("nook-mpris").path, ["--address", bus.address], environment: environment)))
    started.append(("nook-notifications", try BenchProcess(bin.appendingPathComponent("nook-notifications").path,
                                                           ["--address", bus.address, "--state-dir", state.path + "/bridge"], environment: environment)))
    // The system bridges, with no UPower on this bus: idle as on a desktop without a battery.
    started.append(("nook-system", try BenchProcess(bin.appendingPathComponent("nook-system").path,
                                                    ["--address", bus.address, "--system-address", bus.address], environment: environment)))
    _ = try await eventually { try await watcher.nameOwner(of: "org.freedesktop.Notifications") != nil }
    // Everyone registered and settled (the renderer has drawn its first frame by then).
    try await Task.sleep(for: .seconds(3))
    var memory = SessionMemory()
    for (name, process) in started {
        let rss = Double(process.residentKiB) / 1024
        memory.programs.append(name)
        memory.each.append((name, rss))
        memory.rssMiB += rss
        memory.pssMiB += Double(proportionalKiB(process.pid)) / 1024
    }
    memory.uniqueMiB = ResidentPages.uniqueKiB(of: started.map(\.1.pid)).map { Double($0) / 1024 }
    // At rest: nothing showing, nothing counting (after the start-up's pool threads retire).
    try await Task.sleep(for: .seconds(6))
    let before = started.map { threadCounters($0.1.pid) }
    try await Task.sleep(for: .seconds(idleWindow))
    for ((name, process), start) in zip(started, before) {
        let spent = difference(from: start, to: threadCounters(process.pid))
        memory.idle.append((name, spent.cpu / 1e9 / idleWindow * 100, Double(spent.wakeups) / idleWindow))
    }
    return memory
}

/// `Pss:` of /proc/PID/smaps_rollup, in KiB.
private func proportionalKiB(_ pid: Int32) -> Int {
    let text = ProcFile.text("/proc/\(pid)/smaps_rollup") ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("Pss:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}
