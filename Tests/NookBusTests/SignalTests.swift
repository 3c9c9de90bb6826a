import Testing
@testable import NookBus
import NookTestSupport
import NookCore
import Synchronization

@Suite struct SignalTests {
    static let rule = MatchRule(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged")

    @Test func broadcastSignalsReachEverySubscriber() async throws {
        try await PrivateBus.with { bus in
            let emitter = try await BusConnection.connect(to: .address(bus.address))
            let a = try await BusConnection.connect(to: .address(bus.address))
            let b = try await BusConnection.connect(to: .address(bus.address))
            var streamA = try await a.signals(matching: Self.rule).makeAsyncIterator()
            var streamB = try await b.signals(matching: Self.rule).makeAsyncIterator()
            try await emitter.emitSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", arguments: [.string("all")])
            let gotA = await streamA.next(), gotB = await streamB.next()
            #expect(gotA?.arguments == [.string("all")] && gotA?.sender == emitter.uniqueName)
            #expect(gotB?.arguments == [.string("all")])
            for connection in [emitter, a, b] { await connection.close() }
        }
    }

    @Test func unicastReachesOnlyItsTarget() async throws {
        try await PrivateBus.with { bus in
            let emitter = try await BusConnection.connect(to: .address(bus.address))
            let target = try await BusConnection.connect(to: .address(bus.address))
            let bystander = try await BusConnection.connect(to: .address(bus.address))
            var targetSignals = try await target.signals(matching: Self.rule).makeAsyncIterator()
            var bystanderSignals = try await bystander.signals(matching: Self.rule).makeAsyncIterator()
            try await emitter.emitSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged",
                                         arguments: [.string("private")], destination: target.uniqueName)
            // Signals from one sender arrive in order: if the bystander's first signal is the
            // broadcast marker, the unicast one sent before it never reached the bystander.
            try await emitter.emitSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", arguments: [.string("marker")])
            #expect(await targetSignals.next()?.arguments == [.string("private")])
            #expect(await targetSignals.next()?.arguments == [.string("marker")])
            #expect(await bystanderSignals.next()?.arguments == [.string("marker")])
            for connection in [emitter, target, bystander] { await connection.close() }
        }
    }

    @Test func droppingAStreamRemovesItsMatch() async throws {
        try await PrivateBus.with { bus in
            let connection = try await BusConnection.connect(to: .address(bus.address))
            let token = try await connection.addMatch(Self.rule) { _ in }
            await connection.removeMatch(token)
            // Removing twice is harmless.
            await connection.removeMatch(token)
            // Closing finishes every open stream.
            let stream = try await connection.signals(matching: Self.rule)
            await connection.close()
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == nil)
        }
    }
}

@Suite struct NameTests {
    @Test func secondOwnerOfANameIsRefused() async throws {
        try await PrivateBus.with { bus in
            let first = try await BusConnection.connect(to: .address(bus.address))
            let second = try await BusConnection.connect(to: .address(bus.address))
            try await first.requestName("org.nook.Test.Owned")
            await #expect(throws: BusError.nameTaken("org.nook.Test.Owned")) { try await second.requestName("org.nook.Test.Owned") }
            #expect(try await second.nameOwner(of: "org.nook.Test.Owned") == first.uniqueName)
            // Asking again for a name one already owns is fine.
            try await first.requestName("org.nook.Test.Owned")
            await first.close()
            await second.close()
        }
    }

    @Test func invalidNamesAreRefusedBeforeTheBus() async throws {
        try await PrivateBus.with { bus in
            let connection = try await BusConnection.connect(to: .address(bus.address))
            await #expect(throws: BusError.self) { try await connection.requestName("not a name") }
            await connection.close()
        }
    }

    @Test func nameOwnerChangesAreWatched() async throws {
        try await PrivateBus.with { bus in
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            var changes = try await watcher.nameOwnerChanges(of: "org.nook.Test.Watched").makeAsyncIterator()
            let owner = try await BusConnection.connect(to: .address(bus.address))
            try await owner.requestName("org.nook.Test.Watched")
            #expect(await changes.next() == NameOwnerChange(name: "org.nook.Test.Watched", oldOwner: "", newOwner: owner.uniqueName))
            try await owner.releaseName("org.nook.Test.Watched")
            #expect(await changes.next() == NameOwnerChange(name: "org.nook.Test.Watched", oldOwner: owner.uniqueName, newOwner: ""))
            await owner.close()
            await watcher.close()
        }
    }

    @Test func peerTrackingFiresWhenAHelperIsKilled() async throws {
        try await PrivateBus.with { bus in
            let connection = try await BusConnection.connect(to: .address(bus.address))
            // A real process nobody here wrote the bus code of: python-dbus (Debian's python3-dbus,
            // hence /usr/bin/python3 rather than whatever python3 is first on PATH) connects and waits.
            let helper = try HelperProcess("/usr/bin/python3", ["-c", """
                import dbus, sys, time
                bus = dbus.bus.BusConnection("\(bus.address)")
                print(bus.get_unique_name(), flush=True)
                time.sleep(3600)
                """])
            let helperName = try #require(helper.readLine())
            let left = Flag()
            _ = try await connection.trackPeer(helperName) { left.set() }
            #expect(!left.isSet)
            helper.kill(SIGKILL)
            #expect(await eventually { left.isSet }, "no leave callback after SIGKILL")
            // A peer that is already gone is reported at once.
            let late = Flag()
            _ = try await connection.trackPeer(helperName) { late.set() }
            #expect(late.isSet)
            await connection.close()
        }
    }
}

import Synchronization
import Glibc

/// A thread-safe boolean for callbacks that run on a bus thread.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

@Suite struct BusLossTests {
    /// When the bus daemon dies, streams end and `waitUntilClosed` returns, so code waiting on
    /// signals learns of it instead of waiting forever.
    @Test func losingTheBusFinishesStreamsAndWakesWaiters() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try await BusConnection.connect(to: .address(bus.address))
        let stream = try await connection.signals(matching: MatchRule(interface: "org.nook.Test.Nothing"))
        let ended = Task {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next() == nil
        }
        bus.stop()
        await connection.waitUntilClosed()
        #expect(await ended.value, "the stream did not finish when the bus went away")
        #expect(await !connection.isOpen)
        await #expect(throws: BusError.disconnected) {
            try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                      interface: "org.freedesktop.DBus", member: "GetId")
        }
    }

    /// `waitUntilClosed` checked the connection, then stored its waiter in a later turn of the
    /// bus thread; a loss handled between the two left the waiter stored after the wake-up and
    /// waiting forever (nook-mpris, whose exit on bus loss waits on it, stayed up without its
    /// bus about once in a hundred runs). Many waits raced against a close: every one returns.
    @Test func waitUntilClosedReturnsWhereverTheLossFallsBetweenItsSteps() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        for _ in 0..<150 {
            let connection = try await BusConnection.connect(to: .address(bus.address))
            let returned = Flag()
            let waiters = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 { group.addTask { await connection.waitUntilClosed() } }
                }
                returned.set()
            }
            await Task.yield()
            await connection.close()
            #expect(await eventually(timeout: .seconds(30)) { returned.isSet }, "a waiter did not return after close")
            guard returned.isSet else { return }
            await waiters.value
        }
    }
}

/// `addMatchReadingProps(_:deliver:)`: a signal's `a{sv}` read straight into props, as a renderer reads `Plan`.
@Suite struct SignalPropsTests {
    static let rule = MatchRule(path: EchoObject.path, interface: EchoObject.interface, member: "Planned")

    /// The same value, or failures naming the same thing.
    static func same(_ a: Result<PropValue, WireDecodingError>, _ b: Result<PropValue, WireDecodingError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x.description == y.description
        default: false
        }
    }

    /// Emits `argument` and returns what a props match and a plain match on one connection got.
    private func received(_ argument: DBusValue) async throws -> (props: Result<PropValue, WireDecodingError>?, plain: [DBusValue]?) {
        try await PrivateBus.with { bus in
            let emitter = try await BusConnection.connect(to: .address(bus.address))
            let receiver = try await BusConnection.connect(to: .address(bus.address))
            let props = Mutex<[Result<PropValue, WireDecodingError>]>([])
            let plain = Mutex<[[DBusValue]]>([])
            // Both on one connection: each reads the message from its first argument.
            _ = try await receiver.addMatchReadingProps(Self.rule) { result in props.withLock { $0.append(result) } }
            _ = try await receiver.addMatch(Self.rule) { signal in plain.withLock { $0.append(signal.arguments) } }
            _ = try await receiver.addMatchReadingProps(Self.rule) { result in props.withLock { $0.append(result) } }
            try await emitter.emitSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Planned", arguments: [argument])
            _ = try await eventually { props.withLock { $0.count } == 2 && plain.withLock { $0.count } == 1 }
            let got = props.withLock { $0 }
            // The two props matches read the same.
            #expect(got.count == 2 && Self.same(got[0], got[1]))
            await emitter.close()
            await receiver.close()
            return (got.first, plain.withLock { $0.first })
        }
    }

    @Test func aPlanLikeRecordReadsStraightAsTheGeneralReadConvertsIt() async throws {
        let plan = WireCodec.vardict([
            "serial": .uint(7), "cause": .string("activity_updated"), "reduce_motion": .bool(false),
            "chrome": .dictionary(["from_rect": .structure([.double(1), .double(2), .double(3), .double(4)]), "from_radius": .double(15)]),
            "scene_delta": .dictionary(["base": .uint(6), "removed": .array([]), "upserted": .array([
                .dictionary(["kind": .string("progress"), "path": .string("peek/2"), "value": .double(0.42), "index": .uint(10)]),
            ])]),
            "reveals": .array([.string("a"), .string("b")]),
        ])
        let (props, plain) = try await received(plan)
        let general = try PropValue(wire: try #require(plain?.first), at: "")
        #expect(try props?.get() == general)
        guard case .dictionary(let record)? = try props?.get(), case .dictionary(let delta)? = record["scene_delta"],
              case .array(let upserted)? = delta["upserted"], case .dictionary(let node)? = upserted.first else {
            Issue.record("no upserted node in \(String(describing: props))")
            return
        }
        #expect(node["value"] == .double(0.42))
    }

    @Test func anArgumentInAnotherFormIsReadTheGeneralWay() async throws {
        // A byte array is not one of the straight reader's forms; a string is not an `a{sv}`.
        for argument: DBusValue in [.vardict(["icon": .array(element: "y", [.byte(1), .byte(2)])]), .string("not a plan")] {
            let (props, plain) = try await received(argument)
            let first = try #require(plain?.first)
            let general = Result { () throws(WireDecodingError) in try PropValue(wire: first, at: "") }
            #expect(Self.same(try #require(props), general))
        }
    }
}
