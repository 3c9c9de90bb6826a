import Foundation
import NookBus
import NookTestSupport

/// Issue 42's footprint figures, from the binaries of this release build:
/// - installed size: `make install-files` with `RUNTIME=private` (what `make install` does)
///   into a scratch DESTDIR, every installed byte counted; goal at most 60 MB;
/// - a typical session's memory: nookd, nook-renderer (on a private Xvfb), nook-mpris and
///   nook-notifications on a private bus, each with its work to do (a track playing is not
///   needed: the bridges idle as they do all day), 3 s after the last one is up. RSS summed
///   (each process counts the shared runtime's pages it touches: the goal's measure, at most
///   64 MB) and PSS summed (shared pages split between the processes sharing them).
func runFootprintBenchmark() async throws -> [Figure] {
    print("footprint: make install's size and a typical session's memory (release build)")
    let bin = URL(fileURLWithPath: try BenchProcess.nookdPath()).deletingLastPathComponent()
    var figures: [Figure] = []
    if let size = try await installedBytes(bin: bin) {
        let megabytes = Double(size) / 1_000_000
        print("  make install (private runtime, stripped): \(fmt(megabytes)) MB")
        figures.append(Figure(name: "footprint: make install size", value: megabytes, unit: "MB", goal: "<= 60 MB (issue 42)", ratio: nil,
                              met: megabytes <= 60))
    }
    let session = try await sessionMemory(bin: bin)
    print("  typical session (\(session.programs.joined(separator: ", "))): RSS \(fmt(session.rssMiB)) MiB, PSS \(fmt(session.pssMiB)) MiB")
    for (program, rss) in session.each { print("    \(program.padding(20)) RSS \(fmt(rss)) MiB") }
    figures.append(Figure(name: "footprint: typical session RSS (\(session.programs.count) programs)", value: session.rssMiB, unit: "MiB",
                          goal: "<= 64 MB together (issue 42)", ratio: nil, met: session.rssMiB * 1.048576 <= 64))
    figures.append(Figure(name: "footprint: typical session PSS", value: session.pssMiB, unit: "MiB", goal: "informational", ratio: nil, met: nil))
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
}

private func sessionMemory(bin: URL) async throws -> SessionMemory {
    let bus = try PrivateBus()
    defer { bus.stop() }
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: state) }
    let environment = ["XDG_RUNTIME_DIR": state.path, "XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path, "HOME": state.path]
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
    return memory
}

/// `Pss:` of /proc/PID/smaps_rollup, in KiB.
private func proportionalKiB(_ pid: Int32) -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("Pss:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}
