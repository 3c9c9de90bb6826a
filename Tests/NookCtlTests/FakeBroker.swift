import Foundation
import NookBus
import NookCtlKit

/// A stand-in for nookd that speaks the Control and Render parts of the contract with
/// canned answers and records every call, so each verb can run end to end over a real bus.
/// It checks nothing nookd would check; the verbs' tests against nookd itself come later.
final class FakeBroker: @unchecked Sendable {
    // @unchecked: `calls` and `reduceMotion` are only touched under `lock`.
    let connection: BusConnection
    private let lock = NSLock()
    private var recorded: [String] = []
    private var reduceMotionValue = false
    /// Plans `Subscribe` answers with (the first) and then sends as `Plan` signals.
    let plans: [DBusValue]

    var calls: [String] { lock.withLock { recorded } }
    var reduceMotion: Bool { lock.withLock { reduceMotionValue } }

    static let state = DBusValue.vardict([
        "presentation": .string("pill"), "module": .string("music"), "activity": .string("song"),
        "activities": .array(element: "(ss)", [.structure([.string("music"), .string("song")]), .structure([.string("timer"), .string("tea")])]),
        "reduce_motion": .bool(false), "serial": .uint64(41),
    ])

    init(address: String, plans: [DBusValue]) async throws {
        self.plans = plans
        connection = try await BusConnection.connect(to: .address(address), description: "fake-nookd")
        let record: @Sendable (MethodCall) -> Void = { [unowned self] call in
            let arguments = call.arguments.map { PlanJSON.json($0) }.joined(separator: ", ")
            lock.withLock { recorded.append("\(call.interface.split(separator: ".").last!).\(call.member)(\(arguments))") }
        }
        let serial: [DBusValue] = [.uint64(42)]
        func returnsSerial(_ name: String, _ inputs: [DBusArgument]) -> DBusMethod {
            DBusMethod(name, in: inputs, out: [DBusArgument("serial", "t")]) { call in record(call); return serial }
        }
        let plans = self.plans
        let control = DBusInterface(NookContract.control, methods: [
            DBusMethod("Show") { call in record(call); return [] },
            DBusMethod("Hide") { call in record(call); return [] },
            returnsSerial("Open", [DBusArgument("options", "a{sv}")]),
            returnsSerial("Close", [DBusArgument("options", "a{sv}")]),
            DBusMethod("Peek", in: [DBusArgument("module", "s"), DBusArgument("activity", "s")], out: [DBusArgument("serial", "t")]) { call in
                record(call)
                let activity: String = try call.argument(1)
                guard activity == "song" else {
                    throw DBusError(name: "org.nook.Nook1.Error.UnknownActivity", message: "no activity '\(activity)' in module 'music'")
                }
                return serial
            },
            returnsSerial("EndPeek", []),
            returnsSerial("OpenCompanion", [DBusArgument("module", "s")]),
            returnsSerial("CloseCompanion", []),
            returnsSerial("DisplayChanged", [DBusArgument("display", "a{sv}")]),
            DBusMethod("EndActivity", in: [DBusArgument("module", "s"), DBusArgument("activity", "s"), DBusArgument("options", "a{sv}")]) { call in
                record(call); return []
            },
            DBusMethod("GetState", out: [DBusArgument("state", "a{sv}")]) { call in record(call); return [FakeBroker.state] },
            DBusMethod("PreviewPlan", in: [DBusArgument("action", "s"), DBusArgument("options", "a{sv}")], out: [DBusArgument("plan", "a{sv}")]) { call in
                record(call)
                return [plans[1]]
            },
            DBusMethod("SetTokens", in: [DBusArgument("tokens", "a{sv}")]) { call in record(call); return [] },
            DBusMethod("GetTokens", out: [DBusArgument("tokens", "a{sv}")]) { call in
                record(call)
                return [.vardict(["motion.hideDip": .string("150ms")])]
            },
            DBusMethod("SetSharedElementAnimation", in: [DBusArgument("which", "s"), DBusArgument("curve", "a{sv}")]) { call in
                record(call)
                return []
            },
        ], properties: [
            DBusProperty("ReduceMotion", "b", get: { [unowned self] in .bool(reduceMotion) }, set: { [unowned self] value in
                guard case .bool(let on) = value else { throw DBusError(.invalidArgs, "ReduceMotion is a b") }
                lock.withLock { recordedSet(on) }
            }),
        ])
        let connection = self.connection
        let render = DBusInterface(NookContract.render, methods: [
            DBusMethod("Subscribe", in: [DBusArgument("display", "a{sv}")], out: [DBusArgument("handle", "o"), DBusArgument("plan", "a{sv}")]) { call in
                record(call)
                let sender = call.sender
                Task {
                    for plan in plans.dropFirst() {
                        try await Task.sleep(for: .milliseconds(20))
                        try await connection.emitSignal(path: NookContract.objectPath, interface: NookContract.render, member: "Plan",
                                                        arguments: [plan], destination: sender)
                    }
                }
                return [.objectPath("/org/nook/Nook1/render/1"), plans[0]]
            },
            DBusMethod("Unsubscribe") { call in record(call); return [] },
        ], signals: [DBusSignal("Plan", [DBusArgument("plan", "a{sv}")])])
        try await connection.export([control, render], at: NookContract.objectPath)
        try await connection.requestName(NookContract.busName)
    }

    private func recordedSet(_ on: Bool) {
        reduceMotionValue = on
        recorded.append("Properties.Set(ReduceMotion, \(on))")
    }

    func close() async { await connection.close() }
}
