import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import NookBroker
import NookCommandLine

// nookd: parse the command line, hand over to the broker library, exit with its status.

/// nookd's entry point: the `nookd` executable and the multi-call `nook-programs` both call it.
public enum Program {
    public static func main() async -> Never {
        // Before any other thread allocates: one glibc arena, and a plan's freed memory kept
        // for the next plan (BrokerHeap says why).
        BrokerHeap.useOneArena()
        BrokerHeap.keepPlanningMemory()

        let commandLine = CommandLineInterface(
            program: "nookd",
            usage: ["[--address ADDR] [--state-dir DIR] [--limits NAME=VALUE,...] [--verbose]", "--help | --version"],
            about: "The Nook broker: serves org.nook.Nook1 (CONTRACT.md) on the session bus.",
            options: [
                .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus"),
                .value("--state-dir", "DIR", help: "where state.json lives (default $XDG_STATE_HOME/nook, else ~/.local/state/nook); yours alone: created 0700, refused if another user owns it or may write it"),
                .value("--limits", "NAME=VALUE,...", help: "limits against slow and greedy peers (docs/broker.md names them), e.g. render.maxUnreadPlanBytesTotal=67108864"),
                .flag("--verbose", help: "log debug lines (every scene change) on stderr"),
            ],
            epilogue: """
                In the state directory: state.json (restored on start, each entry validated like a call),
                nookd.starting (the crash-loop guard's marker), and files set aside, never overwritten:
                state.rejected-*.json (refused entries), state.corrupt-*.json, state.crashloop-*.json.

                Exit status: 0 after SIGTERM or SIGINT; 1 when nookd cannot start (another nookd owns the
                name, or the state directory is refused), the bus goes away, or the final state write
                failed; 2 for a bad command line.
                """)

        let parsed = commandLine.parseOrExit()
        var configuration = BrokerConfiguration()
        if let address = parsed.text("--address") { configuration.address = .address(address) }
        if let directory = parsed.text("--state-dir") { configuration.stateDirectory = URL(fileURLWithPath: directory) }
        if parsed.flag("--verbose") { configuration.log = Log(minimum: .debug) }
        if let limits = parsed.text("--limits") {
            do { try configuration.setLimits(limits) } catch { commandLine.fail("--limits: \(error)") }
        }

        exit(await BrokerDaemon.run(configuration))
    }
}
