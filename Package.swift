// swift-tools-version:6.0
// Nook: a live-activity broker for Linux desktops. See README.md and docs/.
import PackageDescription

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
    ],
    targets: [
        // The only C surface: libsystemd's sd-bus and sd-daemon, found through pkg-config.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // Pure and deterministic: no D-Bus, no clocks, no files.
        .target(name: "NookCore"),
        // The version every installed program prints for `--version`, kept in one place.
        .target(name: "NookVersion"),
        // The one command-line parser every program shares: --help, --version, exit status 2.
        .target(name: "NookCommandLine", dependencies: ["NookVersion"]),
        // The only code that touches sd-bus: the binding and the Nook wire codec.
        .target(name: "NookBus", dependencies: ["CSystemd", "NookCore"]),
        // The SDK module authors write against.
        .target(name: "NookModuleAPI", dependencies: ["NookCore", "NookBus"]),
        // The broker's logic; `nookd` is a thin shell over it.
        .target(name: "NookBroker", dependencies: ["NookCore", "NookBus", "NookText"]),
        // NookVersion: the one version line every `--version` prints.
        .executableTarget(name: "nookd", dependencies: ["NookBroker", "NookCommandLine"]),
        // A renderer's view of plans, without any toolkit: what to draw at an instant.
        .target(name: "NookRenderModel", dependencies: ["NookCore"]),
        // nookctl's verbs, plan formatting and SVG recording (plans played through NookRenderModel); the executable is a thin shell.
        .target(name: "NookCtlKit", dependencies: ["NookCore", "NookBus", "NookCommandLine", "NookRenderModel"]),
        .executableTarget(name: "nookctl", dependencies: ["NookCtlKit", "NookVersion"]),
        // Fontconfig, FreeType and HarfBuzz: the broker measures text in the fonts renderers draw with.
        .systemLibrary(
            name: "CFontText",
            pkgConfig: "fontconfig freetype2 harfbuzz",
            providers: [.apt(["libfontconfig-dev", "libfreetype-dev", "libharfbuzz-dev"])]
        ),
        // Text measured with fontconfig and HarfBuzz (a NookCore `TextMeasurer`), for the broker.
        .target(name: "NookText", dependencies: ["CFontText", "NookCore"]),
        // GTK3, gtk-layer-shell, Cairo and Pango, for the on-screen renderer only.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk+-3.0 gtk-layer-shell-0",
            providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]
        ),
        // The nook on screen: a client of the public contract only, drawn with GTK3 and Cairo.
        .executableTarget(name: "nook-renderer", dependencies: ["CGtk", "NookRenderModel", "NookBus", "NookCore", "NookVersion", "NookCommandLine"]),
        // The MPRIS music bridge, installed as `nook-mpris` (its source stays with the examples).
        .executableTarget(name: "nook-mpris", dependencies: ["NookModuleAPI", "NookBus", "NookCommandLine"], path: "Examples/MusicModule"),
        // The freedesktop Notifications bridge's logic; `nook-notifications` is a thin shell over it.
        .target(name: "NookNotifications", dependencies: ["NookModuleAPI", "NookBus"]),
        .executableTarget(name: "nook-notifications", dependencies: ["NookNotifications", "NookCommandLine", "NookVersion"]),
        // The module-author guide's sample, compiled so the guide cannot drift from code that builds.
        .target(name: "NookGuideSample", dependencies: ["NookModuleAPI"], path: "Examples/GuideSample"),
        .executableTarget(name: "TimerModule", dependencies: ["NookModuleAPI", "NookCommandLine"], path: "Examples/TimerModule"),
        // The hero card's view, a library so the SDK tests test the example itself.
        .target(name: "NookHeroCard", dependencies: ["NookModuleAPI"], path: "Examples/HeroCard", sources: ["HeroCardView.swift"]),
        .executableTarget(
            name: "HeroCard", dependencies: ["NookModuleAPI", "NookCommandLine", "NookHeroCard"], path: "Examples/HeroCard",
            exclude: ["HeroCardView.swift"]),
        // docs/quick-start.md's module, compiled (and its run script run) by the tests.
        .executableTarget(name: "QuickStart", dependencies: ["NookModuleAPI"], path: "Examples/QuickStart", exclude: ["run.sh"]),
        // Test doubles many suites share: the private dbus-daemon launcher, helper processes.
        .target(name: "NookTestSupport", dependencies: ["NookCore"]),
        // `make bench`: release-build benchmarks that report ratios against in-run baselines.
        .executableTarget(name: "nook-bench", dependencies: ["NookCommandLine", "NookCore", "NookBus", "CSystemd", "NookTestSupport", "NookText", "NookRenderModel"]),
        .testTarget(name: "NookCoreTests", dependencies: ["NookCore", "NookTestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "NookCommandLineTests", dependencies: ["NookCommandLine", "NookTestSupport"]),
        .testTarget(name: "NookCtlTests", dependencies: ["NookCtlKit", "NookBus", "NookTestSupport", "NookRenderModel"]),
        .testTarget(name: "NookBusTests", dependencies: ["NookBus", "CSystemd", "NookTestSupport"]),
        .testTarget(name: "NookBrokerTests", dependencies: ["NookBroker", "NookBus", "NookTestSupport", "NookNotifications"]),
        .testTarget(name: "NookModuleAPITests", dependencies: ["NookModuleAPI", "NookGuideSample", "NookHeroCard"]),
        .testTarget(name: "NookModuleAPIIntegrationTests", dependencies: ["NookModuleAPI", "NookBus", "NookTestSupport", "NookGuideSample"]),
        .testTarget(name: "NookRenderModelTests", dependencies: ["NookRenderModel", "NookCore", "NookTestSupport"]),
        .testTarget(name: "NookNotificationsTests", dependencies: ["NookNotifications", "NookBus", "NookTestSupport"]),
        .testTarget(name: "NookRendererTests", dependencies: ["NookBus", "NookTestSupport", "NookText", "NookCore"]),
    ],
    swiftLanguageModes: [.v6]
)
