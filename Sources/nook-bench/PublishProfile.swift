import NookBroker
import NookBus
import NookCore

/// `--profile publish` / `publish-crowd`: what nookd does with one `UpdateActivity` before it
/// replies, in process and untimed, for callgrind: `Registry.updateActivity` on the call's
/// props (NookBus reads them from the message straight into props, `PropReader`; here they
/// are made ahead) and the registry's next deadlines that `Broker.perform` asks for after every
/// call. `publish` has the publish benchmark's one module and activity; `publish-crowd` has the
/// RSS benchmark's 256 modules x 4 activities and updates one of them. Planning and sending the
/// plan are the planner's and wire's cases.
func runPublishProfile(runs: Int, modules: Int = 1, activitiesPerModule: Int = 1) -> Int {
    var registry = Registry()
    var checksum = 0
    do {
        for module in 0..<modules {
            let caller = ":1.\(module + 1)"
            _ = try registry.register(module: "bench\(module)", info: [:], caller: caller, now: BrokerTime(seconds: 0))
            for activity in 0..<activitiesPerModule {
                _ = try registry.startActivity("song\(activity)", spec: benchSpec(activity), caller: caller, now: BrokerTime(seconds: 0))
            }
        }
        // The same number of updates made ahead whatever `runs` is, so the difference of two
        // runs counts only the broker's side.
        let updates = (0..<publishProfileUpdates).map { benchSpec($0 + 1) }
        for index in 0..<runs {
            let changes = updates[index % updates.count]
            let actions = try registry.updateActivity("song0", changes: changes, caller: ":1.1", now: BrokerTime(seconds: Double(index) * 0.003))
            checksum &+= actions.count
            if registry.nextExpiry != nil { checksum &+= 1 }
            if let date = registry.nextStaleDate { checksum &+= Int(date & 1) }
            if let date = registry.nextDismissDate { checksum &+= Int(date & 1) }
        }
    } catch {
        print("publish profile failed: \(error)")
    }
    return checksum
}

/// How many distinct updates `runPublishProfile` cycles through.
private let publishProfileUpdates = 1_000
