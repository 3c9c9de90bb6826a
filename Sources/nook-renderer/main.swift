// nook-renderer: the nook on a Linux desktop, drawn with GTK3, Cairo and Pango from the plans
// nookd sends (a client of the public contract only). See docs/renderer.md.
import CGtk
import Glibc
import NookBus
import NookRenderModel

let options = RendererOptions.fromCommandLine()
Log.verbose = options.verbose
Log.settledLines = options.logSettled

if options.measureText {
    exit(MeasureTextCommand.run(file: options.measureTextFile, family: options.font ?? TextPainter.defaultFamily))
}

// A parent may have started us with SIGTERM and SIGINT blocked (the mask is inherited): take
// them back before any thread starts, and end the main loop on either.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
for number in [SIGTERM, SIGINT] {
    g_unix_signal_add(number, { _ in
        Log.info("stopping on a signal")
        gtk_main_quit()
        return 0  // G_SOURCE_REMOVE
    }, nil)
}

// Everything is drawn with Cairo: GDK's OpenGL support would only cost memory. On X11 it
// probes GLX when the display opens, which maps Mesa and its LLVM (54 MB of the renderer's
// 94 MB RSS on Xvfb; docs/PERFORMANCE.md, "Footprint"). A GDK_GL the user set wins.
if getenv("GDK_GL") == nil { setenv("GDK_GL", "disable", 1) }

guard gtk_init_check(nil, nil) != 0 else {
    Log.info("cannot open a display (set DISPLAY or WAYLAND_DISPLAY)")
    exit(1)
}

// A Wayland compositor without layer shell (GNOME's Mutter) will not let a plain window pick
// its place or stay on top; XWayland will, so start again as an X11 client when it is there.
if MonitorInfo.isWayland(gdk_display_get_default()), gtk_layer_is_supported() == 0, getenv("DISPLAY") != nil, getenv("GDK_BACKEND") == nil {
    Log.info("this Wayland compositor has no layer shell: starting again on XWayland (GDK_BACKEND=x11)")
    setenv("GDK_BACKEND", "x11", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    Log.info("cannot start again on XWayland (errno \(errno)); placing an ordinary window")
}

if options.checkSymbols { exit(SymbolCheckCommand.run(writingTo: options.checkSymbolsDirectory)) }

// renderer.json (docs/renderer.md, "Configuration"): a refused file is logged naming its
// keys, and the defaults apply until a good one is written.
let config: RendererConfig
switch ConfigFile.read() {
case .absent:
    Log.info("no renderer.json (looked in \(ConfigFile.candidates.joined(separator: ", "))); the defaults apply")
    config = .defaults
case .loaded(let loaded, let path):
    Log.info("renderer config \(path) applied")
    for note in loaded.notes { Log.info("renderer config \(path): \(note)") }
    config = loaded
case .refused(let error, let path):
    for problem in error.problems { Log.info("renderer config \(path) refused: \(problem)") }
    Log.info("the defaults apply until renderer.json is fixed")
    config = .defaults
}
let renderer = MainThreadBox(Renderer(config: config, notchOverride: options.notch, slowMotion: options.slowMotion))
let (monitor, reduceMotion) = renderer.value.declarationForLink()

// The bus runs on NookBus's own thread; plans reach GTK only through the main loop.
Task.detached {
    let connection: BusConnection
    do {
        connection = try await BusConnection.connect(to: options.address.map(BusAddress.address) ?? .session, description: "nook-renderer")
    } catch {
        Log.info("cannot connect to the bus: \(error)")
        exit(1)
    }
    let link = BrokerLink(connection: connection, display: monitor, reduceMotion: reduceMotion,
                          onFocus: { MainLoop.post { renderer.value.focusRequested() } }) { plan, source in
        MainLoop.post { renderer.value.receive(plan, source: source) }
    }
    MainLoop.post { renderer.value.link = link }
    do {
        try await link.run()
    } catch {
        Log.info("lost the bus: \(error)")
    }
    await connection.waitUntilClosed()
    Log.info("the bus connection closed; exiting")
    exit(1)
}

gtk_main()
exit(Renderer.windowLost ? 1 : 0)
