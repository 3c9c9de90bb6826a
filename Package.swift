// swift-tools-version:6.0
// Nook: a live-activity broker for Linux desktops. See README.md and docs/.
import Foundation
import PackageDescription

/// The include directories pkg-config names for `packages`, asked as the manifest is read.
/// GTK and PipeWire are not `pkgConfig:` system libraries: SwiftPM reads those for every
/// package that depends on Nook, and GTK's `-pthread` then printed a warning in every module
/// author's build (issue 45). Only this package builds the renderer and nook-system, so the
/// flags can be theirs alone.
func includeDirectories(_ packages: [String]) -> [String] {
    let pkgConfig = Process()
    pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkgConfig.arguments = ["pkg-config", "--cflags-only-I"] + packages
    let output = Pipe()
    pkgConfig.standardOutput = output
    pkgConfig.standardError = FileHandle.nullDevice
    // Without pkg-config or the headers (a machine before `make deps`), the target fails to
    // build at its first include, naming the header it cannot find.
    guard (try? pkgConfig.run()) != nil else { return [] }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    pkgConfig.waitUntilExit()
    guard pkgConfig.terminationStatus == 0 else { return [] }
    return text.split(whereSeparator: \.isWhitespace).filter { $0.hasPrefix("-I") }.map(String.init)
}

/// GTK's include directories, for nook-renderer's Swift (through Clang).
let gtkIncludeFlags = includeDirectories(["gtk+-3.0", "gtk-layer-shell-0"]).flatMap { ["-Xcc", $0] }

let package = Package(
    name: "Nook",
    products: [
        .library(name: "NookCore", targets: ["NookCore"]),
        .library(name: "NookBus", targets: ["NookBus"]),
        .library(name: "NookModuleAPI", targets: ["NookModuleAPI"]),
        .executable(name: "nookd", targets: ["nookd"]),
        .executable(name: "nookctl", targets: ["nookctl"]),
        .executable(name: "nook-renderer", targets: ["nook-renderer"]),
        .executable(name: "nook-mpris", targets: ["nook-mpris"]),
        .executable(name: "nook-notifications", targets: ["nook-notifications"]),
        .executable(name: "nook-system", targets: ["nook-system"]),
        .executable(name: "nook-programs", targets: ["nook-programs"]),
    ],
    targets: [
        // The only C surface: libsystemd's sd-bus and sd-daemon, found through pkg-config.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // Pure and deterministic: no D-Bus, no clocks, no files. Its contract code (prop keys,
        // NodeProps, reader dispatch, encoders, the documented key table) is generated from
        // data/contract.json by the ContractPlugin.
        .target(name: "NookCore", plugins: ["ContractPlugin"]),
        .executableTarget(name: "nook-contract-gen", path: "Plugins/ContractGenerator"),
        .plugin(name: "ContractPlugin", capability: .buildTool(), dependencies: ["nook-contract-gen"]),
        // The version every installed program prints for `--version`, kept in one place.
        .target(name: "NookVersion"),
        // The one command-line parser every program shares: --help, --version, exit status 2.
        .target(name: "NookCommandLine", dependencies: ["NookVersion"]),
        // Files from outside read safely: only a regular file, never blocking, never past a limit.
        .target(name: "NookFiles"),
        // The only code that touches sd-bus: the binding and the Nook wire codec.
        .target(name: "NookBus", dependencies: ["CSystemd", "NookCore"], plugins: ["ContractPlugin"]),
        // The SDK module authors write against.
        .target(name: "NookModuleAPI", dependencies: ["NookCore", "NookBus", "NookFiles"]),
        // The broker's logic; `nookd` is a thin shell over it.
        .target(name: "NookBroker", dependencies: ["NookCore", "NookBus", "NookText", "NookFiles", "CMalloc"]),
        // NookVersion: the one version line every `--version` prints.
        .target(name: "NookdEntry", dependencies: ["NookBroker", "NookCommandLine"]),
        .executableTarget(name: "nookd", dependencies: ["NookdEntry"]),
        // A renderer's view of plans, without any toolkit: what to draw at an instant.
        .target(name: "NookRenderModel", dependencies: ["NookCore"]),
        // nookctl's verbs, plan formatting and SVG recording (plans played through NookRenderModel); the executable is a thin shell.
        .target(name: "NookCtlKit", dependencies: ["NookCore", "NookBus", "NookCommandLine", "NookRenderModel", "NookModuleAPI", "NookFiles"]),
        .executableTarget(name: "nookctl", dependencies: ["NookCtlKit", "NookVersion", "NookFiles"]),
        // Fontconfig, FreeType and HarfBuzz: the broker measures text in the fonts renderers draw with.
        .systemLibrary(
            name: "CFontText",
            pkgConfig: "fontconfig freetype2 harfbuzz",
            providers: [.apt(["libfontconfig-dev", "libfreetype-dev", "libharfbuzz-dev"])]
        ),
        // glibc's allocator controls: nookd keeps its heap small (docs/PERFORMANCE.md, session 6).
        .systemLibrary(name: "CMalloc"),
        // Text measured with fontconfig and HarfBuzz (a NookCore `TextMeasurer`), for the broker.
        .target(name: "NookText", dependencies: ["CFontText", "NookCore"]),
        // GTK3, gtk-layer-shell, Cairo and Pango, for the on-screen renderer only.
        // Its include directories are `gtkIncludeFlags`, given to nook-renderer (above); its
        // libraries are linked by its module map. Packages: libgtk-3-dev, libgtk-layer-shell-dev.
        .systemLibrary(name: "CGtk"),
        // A Wayland output's connector name through xdg-output, which GTK 3 does not expose
        // (nook-renderer's `output`); the protocol glue is generated by wayland-scanner.
        .target(name: "CXdgOutput", linkerSettings: [.linkedLibrary("wayland-client")]),
        // The nook on screen: a client of the public contract only, drawn with GTK3 and Cairo.
        .executableTarget(
            name: "nook-renderer", dependencies: ["CGtk", "CXdgOutput", "NookRenderModel", "NookBus", "NookCore", "NookFiles", "NookVersion", "NookCommandLine"],
            swiftSettings: [.unsafeFlags(gtkIncludeFlags)]),
        // The MPRIS music bridge, installed as `nook-mpris` (its source stays with the examples).
        .target(name: "NookMPRISEntry", dependencies: ["NookModuleAPI", "NookBus", "NookCommandLine", "NookFiles"], path: "Examples/MusicModule"),
        .executableTarget(name: "nook-mpris", dependencies: ["NookMPRISEntry"]),
        // The freedesktop Notifications bridge's logic; `nook-notifications` is a thin shell over it.
        .target(name: "NookNotifications", dependencies: ["NookModuleAPI", "NookBus", "NookFiles"]),
        // libpulse, for the volume and microphone bridges (headers in /usr/include; package
        // libpulse-dev; linked by its module map, not pkg-config: see gtkIncludeFlags).
        .systemLibrary(name: "CPulse"),
        // PipeWire's registry (the camera and the screen in use), through a small C layer:
        // its client API is macros Swift cannot call. Package libpipewire-0.3-dev.
        .target(
            name: "CPipeWire",
            cSettings: [.unsafeFlags(includeDirectories(["libpipewire-0.3"]))],
            linkerSettings: [.linkedLibrary("pipewire-0.3")]),
        // The system's bridges (power from UPower, brightness from the backlight, volume and
        // the microphone in use from the sound server, apps' progress from LauncherEntry), and
        // the one program that runs them.
        .target(name: "NookSystem", dependencies: ["NookModuleAPI", "NookBus", "NookCore", "NookFiles", "CPulse", "CPipeWire"]),
        .target(name: "NookSystemEntry", dependencies: ["NookSystem", "NookModuleAPI", "NookBus", "NookCommandLine", "NookFiles", "NookVersion", "NookNotifications"]),
        .executableTarget(name: "nook-system", dependencies: ["NookSystemEntry"]),
        .target(name: "NookNotificationsEntry", dependencies: ["NookNotifications", "NookCommandLine", "NookVersion", "NookFiles"]),
        .executableTarget(name: "nook-notifications", dependencies: ["NookNotificationsEntry"]),
        // The four above in one binary, run by the name it is started under: what `make
        // install` installs, so their shared code is in memory once (docs/PERFORMANCE.md).
        .executableTarget(name: "nook-programs", dependencies: ["NookdEntry", "NookMPRISEntry", "NookNotificationsEntry", "NookSystemEntry"]),
        // The module-author guide's sample, compiled so the guide cannot drift from code that builds.
        .target(name: "NookGuideSample", dependencies: ["NookModuleAPI"], path: "Examples/GuideSample"),
        .executableTarget(name: "TimerModule", dependencies: ["NookModuleAPI", "NookCommandLine"], path: "Examples/TimerModule"),
        // The hero card's view, a library so the SDK tests test the example itself.
        .target(name: "NookHeroCard", dependencies: ["NookModuleAPI"], path: "Examples/HeroCard", exclude: ["main.swift"], sources: ["HeroCardView.swift"]),
        .executableTarget(
            name: "HeroCard", dependencies: ["NookModuleAPI", "NookCommandLine", "NookHeroCard"], path: "Examples/HeroCard",
            exclude: ["HeroCardView.swift"]),
        // docs/quick-start.md's module, compiled (and its run script run) by the tests.
        .executableTarget(name: "QuickStart", dependencies: ["NookModuleAPI"], path: "Examples/QuickStart", exclude: ["run.sh"]),
        // The build watcher in ActivityKit's shape (docs/module-guide.md).
        .executableTarget(name: "BuildWatcher", dependencies: ["NookModuleAPI"], path: "Examples/BuildWatcher"),
        // Test doubles many suites share: the private dbus-daemon launcher, helper processes.
        .target(name: "NookTestSupport", dependencies: ["NookCore"]),
        // `make bench`: release-build benchmarks that report ratios against in-run baselines.
        .executableTarget(name: "nook-bench", dependencies: ["NookCommandLine", "NookCore", "NookBus", "NookBroker", "CSystemd", "NookTestSupport", "NookText", "NookRenderModel"]),
        .testTarget(name: "NookCoreTests", dependencies: ["NookCore", "NookTestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "NookCommandLineTests", dependencies: ["NookCommandLine", "NookTestSupport"]),
        .testTarget(name: "NookCtlTests", dependencies: ["NookCtlKit", "NookBus", "NookTestSupport", "NookRenderModel"]),
        .testTarget(name: "NookBusTests", dependencies: ["NookBus", "CSystemd", "NookTestSupport"]),
        .testTarget(name: "NookBrokerTests", dependencies: ["NookBroker", "NookBus", "NookTestSupport", "NookNotifications", "NookModuleAPI"]),
        .testTarget(name: "NookModuleAPITests", dependencies: ["NookModuleAPI", "NookGuideSample", "NookHeroCard"]),
        .testTarget(name: "NookModuleAPIIntegrationTests", dependencies: ["NookModuleAPI", "NookBus", "NookTestSupport", "NookGuideSample"]),
        .testTarget(name: "NookRenderModelTests", dependencies: ["NookRenderModel", "NookCore", "NookTestSupport"]),
        .testTarget(name: "NookNotificationsTests", dependencies: ["NookNotifications", "NookModuleAPI", "NookBus", "NookCore", "NookTestSupport"]),
        .testTarget(name: "NookSystemTests", dependencies: ["NookSystem", "NookModuleAPI", "NookBus", "NookTestSupport"]),
        .testTarget(name: "NookRendererTests", dependencies: ["NookBus", "NookTestSupport", "NookText", "NookCore"]),
    ],
    swiftLanguageModes: [.v6]
)
