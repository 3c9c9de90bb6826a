import NookBus
import NookCore

extension NookControlClient {
    /// `press` and `actions` (contract 1.1 Touch).
    func executeTouch(_ command: Command, output: OutputSink) async throws -> ExitStatus {
        switch command {
        case .press(let module, let activity, let action):
            _ = try await call(command.calls[0])
            output.out("pressed \(activity.isEmpty ? module : module + "/" + activity) \(action)\n")
        case .actions(let module, let activity):
            // `PreviewPlan("show")` changes nothing; its scene is what the nook shows now
            // (or, while hidden, what showing it would bring back).
            guard let plan = try await call(command.calls[0]).first else {
                throw DBusError(.invalidSignature, "PreviewPlan replied with nothing; expected 'a{sv}'")
            }
            let owner = activity.isEmpty ? module : module + "/" + activity
            let controls = ActionList.controls(in: try ReceivedPlan(reply: plan).scene, owner: owner)
            if controls.isEmpty {
                output.err("nookctl: no control of \(owner) is on screen now\n")
                return .failure
            }
            output.out(ActionList.text(controls))
        default:
            break
        }
        return .ok
    }
}
