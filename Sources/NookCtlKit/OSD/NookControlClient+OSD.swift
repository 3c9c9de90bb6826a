import NookBus
import NookCore

extension NookControlClient {
    /// Runs `osd`: the display `osd/<kind>` shows the value and peeks, replacing the one a
    /// previous call left in place (a key held down updates one display), and ends by itself
    /// `OSDRequest.seconds` after the last call.
    func execute(_ request: OSDRequest, output: OutputSink) async throws -> ExitStatus {
        let now = Self.unixMicroseconds()
        var values: [String: PropValue] = [:]
        for (slot, view) in OSDViews(request: request).slots { values[slot] = .node(view.rawNode) }
        values["accessibility_label"] = .string(request.label)
        values["relevance"] = .double(OSDRequest.relevance(now: now))
        values["dismiss_date"] = .int(now.saturatingAdd(Microseconds.of(OSDRequest.seconds)))
        let activity = request.kind.rawValue
        do {
            _ = try await call(.register(OSDRequest.module))
        } catch let error as DBusError where error.name == NookErrorName.moduleTaken.rawValue {
            output.err("nookctl: module '\(OSDRequest.module)' belongs to a running program; the on-screen display cannot be shown\n")
            return .failure
        }
        do {
            _ = try await call(.updateActivity(activity, values))
        } catch let error as DBusError where error.name == NookErrorName.unknownActivity.rawValue {
            values["lifetime"] = .string("detached")
            _ = try await call(.startActivity(activity, values))
        }
        _ = try await call(.peek(module: OSDRequest.module, activity: activity))
        output.out("\(request.label)\n")
        return .ok
    }
}
