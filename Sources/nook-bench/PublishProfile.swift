import NookBroker
import NookBus
import NookCore

/// `--profile publish`: what nookd does with one `UpdateActivity` before it replies, in
/// process and untimed, for callgrind: the call's `a{sv}` argument (as NookBus decoded it)
/// read into props, then `Registry.updateActivity`, with the publish benchmark's payload.
/// Planning and sending the plan are the planner cases' and the wire benchmark's.
func runPublishProfile(runs: Int) -> Int {
    var registry = Registry()
    let caller = ":1.1"
    var checksum = 0
    do {
        _ = try registry.register(module: "bench", info: [:], caller: caller, now: BrokerTime(seconds: 0))
        _ = try registry.startActivity("song", spec: benchSpec(0), caller: caller, now: BrokerTime(seconds: 0))
        // Encoded ahead, as a module would: only the broker's side is measured.
        let arguments = (0..<runs).map { WireCodec.vardict(benchSpec($0)) }
        for (index, argument) in arguments.enumerated() {
            let changes = try WireCodec.dictionary(argument, at: "")
            let actions = try registry.updateActivity("song", changes: changes, caller: caller, now: BrokerTime(seconds: Double(index) * 0.003))
            checksum &+= actions.count
        }
    } catch {
        print("publish profile failed: \(error)")
    }
    return checksum
}
