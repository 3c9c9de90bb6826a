import Foundation
import NookTestSupport

/// KDE Plasma 5.27 on Wayland for one test, as Debian 12 ships it: KWin's virtual backend
/// (no GPU: Mesa's llvmpipe, OpenGL compositing), kactivitymanagerd and plasmashell with one
/// 30 px panel at the top, all run as the `WaylandTestUser` on a private session bus of their
/// own, and ended by their pids. No bus activation: nothing starts that the test did not.
///
/// The desktop is made easy to read in a screenshot: a plain colour for the wallpaper
/// (`desktopColour`), the panel opaque in one colour (`panelColour`, through the colour
/// scheme's window background) holding only the launcher at the left and "show desktop" at the
/// right (nothing that changes by itself, like a clock), maximized windows without a title
/// bar, and no animations. The panel casts a shadow some 8 px down over what lies below it.
///
/// Screenshots come from KWin's `org.kde.KWin.ScreenShot2` (KWin has no wlr-screencopy, so
/// grim cannot take them): `CaptureArea` writes raw pixels to a pipe the caller passes. The
/// interface refuses callers that are not allowed to take screenshots, unless KWin runs with
/// `KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1`, as it does here.
final class PlasmaSession: @unchecked Sendable {
    // @unchecked: every stored property is immutable; the processes are only signalled by pid.
    static let screen = (width: 1280, height: 800)
    static let panelHeight = 30
    static let panelColour: [UInt8] = [30, 144, 255]
    static let desktopColour: [UInt8] = [60, 60, 60]
    /// How far down the panel's shadow reaches below it.
    static let panelShadow = 10
    static let waylandDisplay = "wayland-kde"

    let user: WaylandTestUser
    /// KDE's own session bus (KWin's and plasmashell's), not nookd's.
    let bus: PrivateBus
    let runtimeDirectory: URL
    let home: URL
    private let kwin: PackageProcess
    private let activities: PackageProcess
    private let plasmashell: PackageProcess

    /// Starts KWin, kactivitymanagerd and plasmashell in `stack` (each stopped with it) and
    /// waits until the panel and the desktop are drawn.
    init(in stack: NookStack) async throws {
        user = try await WaylandTestUser.shared()
        let directory = stack.scratch.appendingPathComponent("plasma")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try user.makePrivateDirectory(runtimeDirectory)
        try user.makePrivateDirectory(home)
        let config = home.appendingPathComponent(".config")
        try user.makePrivateDirectory(config)
        for (name, text) in Self.configFiles {
            let file = config.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            guard chown(file.path, user.uid, user.gid) == 0 else { throw TestSupportError("cannot give \(file.path) to the Wayland test user") }
        }
        bus = try stack.bus(allowingOtherUsers: true)

        let session = [
            "XDG_RUNTIME_DIR": runtimeDirectory.path, "HOME": home.path, "XDG_CONFIG_HOME": config.path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/local/bin:/usr/bin:/bin",
        ]
        // Debian gives kwin_wayland the file capability cap_sys_resource, which a container's
        // bounding set may lack: then exec fails with EPERM. Through the dynamic loader no file
        // capability applies (KWin only cannot raise its limits); KWin's own Qt platform
        // plugin then needs telling that this is KWin (it checks the program's file name).
        let kwinBinary = try Tools.path(of: "kwin_wayland")
        let loader = try await Self.loader(of: kwinBinary)
        let (kwinExecutable, kwinArguments) = try user.command(loader, [
            kwinBinary, "--virtual", "--width", String(Self.screen.width), "--height", String(Self.screen.height),
            "--socket", Self.waylandDisplay, "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities",
        ], environment: session.merging(["KWIN_FORCE_OWN_QPA": "1", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1"]) { $1 })
        kwin = try PackageProcess(kwinExecutable, kwinArguments, logDirectory: directory)
        let kwin = kwin
        stack.onStop { await kwin.stop() }
        let socket = runtimeDirectory.appendingPathComponent(Self.waylandDisplay).path
        let up = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
            FileManager.default.fileExists(atPath: socket) || !kwin.isRunning
        }
        guard up, kwin.isRunning else { throw TestSupportError("KWin did not start (is kwin-wayland installed?):\n\(kwin.log)") }

        let client = session.merging([
            "WAYLAND_DISPLAY": Self.waylandDisplay, "QT_QPA_PLATFORM": "wayland", "XDG_CURRENT_DESKTOP": "KDE",
            "KDE_FULL_SESSION": "true", "XDG_SESSION_TYPE": "wayland",
        ]) { $1 }
        // plasmashell refuses to load its shell without the activity manager; on a real session
        // the bus activates it, here it is started first.
        let (activitiesExecutable, activitiesArguments) = try user.command(try Self.activityManager(), [], environment: client)
        activities = try PackageProcess(activitiesExecutable, activitiesArguments, logDirectory: directory)
        let activities = activities
        stack.onStop { await activities.stop() }
        let (plasmaExecutable, plasmaArguments) = try user.command("plasmashell", ["--no-respawn"], environment: client)
        plasmashell = try PackageProcess(plasmaExecutable, plasmaArguments, logDirectory: directory)
        let plasmashell = plasmashell
        stack.onStop { await plasmashell.stop() }

        // Up once KWin's screenshots show the panel across the top and the desktop below it.
        let drawn = await eventually(timeout: .seconds(120), poll: .milliseconds(500)) {
            guard let shot = try? await self.screenshot(height: Self.panelHeight + Self.panelShadow + 10) else { return false }
            let panel = [2, Self.screen.width / 2, Self.screen.width - 60].allSatisfy { shot.pixel(x: $0, y: Self.panelHeight / 2) == Self.panelColour }
            return panel && shot.pixel(x: Self.screen.width / 2, y: shot.height - 1) == Self.desktopColour
        }
        guard drawn else {
            throw TestSupportError("Plasma's top panel never showed:\n\(logs)")
        }
    }

    /// What a Wayland client of this session needs (add the client's own variables).
    var clientEnvironment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": Self.waylandDisplay, "PATH": "/usr/local/bin:/usr/bin:/bin"]
    }

    var logs: String {
        "--- kwin_wayland\n\(kwin.log.suffix(3000))\n--- plasmashell\n\(plasmashell.log.suffix(3000))\n--- kactivitymanagerd\n\(activities.log.suffix(1000))"
    }

    /// The screen's region `x,y WxH` as 8-bit RGB, from `org.kde.KWin.ScreenShot2.CaptureArea`.
    func screenshot(x: Int = 0, y: Int = 0, width: Int = PlasmaSession.screen.width, height: Int = 200) async throws -> RGBImage {
        let image = try RGBImage(ppm: try await XvfbServer.output(of: "/usr/bin/python3", [
            "-c", Self.captureScript, bus.address, String(x), String(y), String(width), String(height),
        ]))
        guard image.width == width, image.height == height else {
            throw TestSupportError("KWin gave \(image.width)x\(image.height), asked for \(width)x\(height)")
        }
        return image
    }

    /// python3-dbus: `CaptureArea` into a pipe (read while KWin writes), the reply's
    /// width, height, stride and QImage format, and the pixels (QImage's 32-bit formats are
    /// B, G, R, A bytes on a little-endian machine) written to stdout as a binary PPM.
    ///
    /// It never hangs: any failure (KWin not serving screenshots yet) ends it at once with
    /// status 1, whoever still holds the pipe's write end, and an alarm ends it after 90 s
    /// (with the signal mask the test runner's threads pass on cleared first).
    private static let captureScript = """
        import os, signal, sys, threading, traceback
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        signal.alarm(90)
        try:
            import dbus
            address, x, y, width, height = sys.argv[1], *map(int, sys.argv[2:6])
            bus = dbus.bus.BusConnection(address)
            shots = dbus.Interface(bus.get_object("org.kde.KWin", "/org/kde/KWin/ScreenShot2"), "org.kde.KWin.ScreenShot2")
            read_end, write_end = os.pipe()
            chunks = []
            def drain():
                with os.fdopen(read_end, "rb") as pipe:
                    while True:
                        chunk = pipe.read(1 << 20)
                        if not chunk:
                            return
                        chunks.append(chunk)
            reader = threading.Thread(target=drain, daemon=True)
            reader.start()
            fd = dbus.types.UnixFd(write_end)  # a copy of write_end, sent with the call
            os.close(write_end)
            reply = shots.CaptureArea(x, y, dbus.UInt32(width), dbus.UInt32(height), {"native-resolution": True}, fd, timeout=60)
            del fd
            reader.join(60)
            if reader.is_alive():
                raise RuntimeError("KWin never finished writing the screenshot")
            data = b"".join(chunks)
            w, h, stride, fmt = (int(reply[key]) for key in ("width", "height", "stride", "format"))
            if fmt not in (4, 5, 6) or len(data) < stride * h:
                raise RuntimeError("unexpected capture: format %d, %d bytes for %dx%d stride %d" % (fmt, len(data), w, h, stride))
            out = bytearray(w * h * 3)
            for row in range(h):
                line = data[row * stride:row * stride + w * 4]
                out[row * w * 3 + 0:(row + 1) * w * 3:3] = line[2::4]
                out[row * w * 3 + 1:(row + 1) * w * 3:3] = line[1::4]
                out[row * w * 3 + 2:(row + 1) * w * 3:3] = line[0::4]
            sys.stdout.buffer.write(b"P6\\n%d %d\\n255\\n" % (w, h) + bytes(out))
            sys.stdout.flush()
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(1)
        os._exit(0)
        """

    /// The files in `~/.config` (see the type's comment). The activity's id is fixed so the
    /// desktop containment, written for it, is the one Plasma shows.
    private static let configFiles: [(String, String)] = {
        let activity = "3f6b3a52-0d51-4c52-9a3e-6c1f3f0b7a01"
        let desktop = desktopColour.map(String.init).joined(separator: ","), panel = panelColour.map(String.init).joined(separator: ",")
        return [
            ("kactivitymanagerdrc", "[activities]\n\(activity)=Default\n\n[main]\ncurrentActivity=\(activity)\n"),
            ("kwinrc", "[Windows]\nBorderlessMaximizedWindows=true\n"),
            ("kdeglobals", "[KDE]\nAnimationDurationFactor=0\n\n[Colors:Window]\nBackgroundNormal=\(panel)\n"),
            ("plasmashellrc", """
                [PlasmaViews][Panel 2]
                floating=0
                panelOpacity=1

                [PlasmaViews][Panel 2][Defaults]
                thickness=\(panelHeight)

                """),
            ("plasma-org.kde.plasma.desktop-appletsrc", """
                [Containments][1]
                activityId=\(activity)
                formfactor=0
                immutability=1
                lastScreen=0
                location=0
                plugin=org.kde.desktopcontainment
                wallpaperplugin=org.kde.color

                [Containments][1][Wallpaper][org.kde.color][General]
                Color=\(desktop)

                [Containments][2]
                activityId=
                formfactor=2
                immutability=1
                lastScreen=0
                location=3
                plugin=org.kde.panel

                [Containments][2][Applets][3]
                immutability=1
                plugin=org.kde.plasma.kickoff

                [Containments][2][Applets][4]
                immutability=1
                plugin=org.kde.plasma.panelspacer

                [Containments][2][Applets][5]
                immutability=1
                plugin=org.kde.plasma.showdesktop

                [Containments][2][General]
                AppletOrder=3;4;5

                """),
        ]
    }()

    /// The dynamic loader `executable` names (`ldd` lists it as the line with a bare path).
    private static func loader(of executable: String) async throws -> String {
        let result = try await Tools.run("ldd", [executable])
        guard result.status == 0,
              let line = result.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { $0.hasPrefix("/") }),
              let path = line.split(separator: " ").first else {
            throw TestSupportError("cannot find the dynamic loader of \(executable): \(result.stdout)\(result.stderr)")
        }
        return String(path)
    }

    /// kactivitymanagerd lives in the architecture's libexec directory.
    private static func activityManager() throws -> String {
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).sorted()
            .map { "/usr/lib/\($0)/libexec/kactivitymanagerd" } + ["/usr/libexec/kactivitymanagerd"]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestSupportError("kactivitymanagerd is not installed (make test installs it)")
        }
        return found
    }
}
