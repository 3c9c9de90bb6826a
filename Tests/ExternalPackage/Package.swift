// swift-tools-version:6.0
// A module author's own package, outside Nook's: ExternalPackageTests copies it next to a link
// named `Nook` to this checkout and builds it, to show NookModuleAPI compiles from outside in
// SwiftUI's words, and that the build prints no warning from targets it does not use.
import PackageDescription

let package = Package(
    name: "SwiftUIWords",
    dependencies: [.package(path: "Nook")],
    targets: [
        .executableTarget(name: "SwiftUIWords", dependencies: [.product(name: "NookModuleAPI", package: "Nook")]),
    ],
    swiftLanguageModes: [.v6]
)
