import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import NookBroker
import NookVersion

// nookd: parse the command line, hand over to the broker library, exit with its status.

let usage = """
    usage: nookd [--address ADDR] [--state-dir DIR] [--verbose] [--help] [--version]

    The Nook broker: serves org.nook.Nook1 (CONTRACT.md) on the session bus.

      --address ADDR    a D-Bus address to use instead of the session bus
      --state-dir DIR   where state.json lives (default $XDG_STATE_HOME/nook, else ~/.local/state/nook)
      --verbose         log debug lines (every scene change) on stderr
      --help            show this text
      --version         print the version

    In the state directory: state.json (restored on start, each entry validated like a call),
    nookd.starting (the crash-loop guard's marker), and files set aside, never overwritten:
    state.rejected-*.json (refused entries), state.corrupt-*.json, state.crashloop-*.json.

    Exit status: 0 after SIGTERM or SIGINT; 1 when nookd cannot start, the bus goes away, or
    the final state write failed; 2 for a bad command line.

    """

func fail(_ message: String) -> Never {
    var text = "nookd: \(message)\n\(usage)"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(2)
}

var configuration = BrokerConfiguration()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print(NookVersion.line(program: "nookd"))
        exit(0)
    case "--address":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--address needs a D-Bus address") }
        configuration.address = .address(value)
    case "--state-dir":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--state-dir needs a directory") }
        configuration.stateDirectory = URL(fileURLWithPath: value)
    case "--verbose":
        configuration.log = Log(minimum: .debug)
    default:
        fail("unknown argument \(argument)")
    }
}

exit(await BrokerDaemon.run(configuration))
