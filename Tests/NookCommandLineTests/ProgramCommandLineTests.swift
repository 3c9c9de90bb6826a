import Foundation
import NookTestSupport
import Testing

/// Every program Nook builds answers its command line alike (real processes): `--help` prints
/// a usage on stdout and exits 0, `--version` exits 0, and an unknown flag exits 2 naming it,
/// all before anything touches a display or a bus (the environment here has neither).
struct ProgramCommandLineTests {
    static let programs = ["nookd", "nookctl", "nook-renderer", "nook-mpris", "nook-notifications", "TimerModule", "HeroCard", "nook-bench"]

    static var noBusNoDisplay: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/nook-test-bus"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        return environment
    }

    @Test(arguments: programs)
    func helpExitsZero(program: String) async throws {
        let result = try await Tools.run(try PackageProcess.executable(program).path, ["--help"], environment: Self.noBusNoDisplay)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: \(program)") || result.stdout.hasPrefix("usage: nookctl"), "\(result.stdout)")
        #expect(result.stdout.contains("--help"), "\(result.stdout)")
    }

    @Test(arguments: programs)
    func versionExitsZero(program: String) async throws {
        let result = try await Tools.run(try PackageProcess.executable(program).path, ["--version"], environment: Self.noBusNoDisplay)
        #expect(result.status == 0 && result.stdout.hasPrefix("\(program) "), "\(result.stdout)\(result.stderr)")
    }

    @Test(arguments: programs)
    func unknownFlagExitsTwoNamingIt(program: String) async throws {
        let result = try await Tools.run(try PackageProcess.executable(program).path, ["--no-such-flag"], environment: Self.noBusNoDisplay)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(program): ") && result.stderr.contains("'--no-such-flag'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
    }

    /// The programs installed with a man page.
    static let manPages = ["nookd", "nook-renderer", "nook-mpris", "nook-notifications"]
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every option a program's `--help` lists is in its man page (as roff writes it, each
    /// `-` escaped): nook-notifications' page once lacked `--history` and `--state-dir`.
    @Test(arguments: manPages)
    func manPageNamesEveryOption(program: String) async throws {
        let help = try await Tools.run(try PackageProcess.executable(program).path, ["--help"], environment: Self.noBusNoDisplay).stdout
        let page = try String(contentsOf: Self.checkout.appendingPathComponent("packaging/man/\(program).1.in"), encoding: .utf8)
        let options = Set(help.split(whereSeparator: { !($0.isLetter || $0 == "-") }).filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        #expect(options.contains("--help") && options.count > 2, "read no options from: \(help)")
        let missing = options.filter { !page.contains($0.replacingOccurrences(of: "-", with: "\\-")) }.sorted()
        #expect(missing.isEmpty, "\(program).1 does not name \(missing)")
    }
}
