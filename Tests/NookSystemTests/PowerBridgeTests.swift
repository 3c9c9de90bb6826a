import Foundation
import NookBus
import NookCore
import NookSystem
import NookTestSupport
import Testing

/// Power in the nook (issue 43, part 4): what UPower says becomes events (pure), and the real
/// nook-system, following a UPower written in python3-dbus, shows them through the real nookd.
@Suite struct PowerEventTests {
    static func reading(_ state: PowerReading.State, _ percentage: Double, warning: PowerReading.Warning = .none, present: Bool = true) -> PowerReading {
        PowerReading(properties: [
            "IsPresent": .bool(present), "Percentage": .double(percentage), "State": .uint32(state.rawValue), "WarningLevel": .uint32(warning.rawValue),
        ])
    }

    @Test func aChargerPluggedOrUnpluggedIsNewsWithThePercentage() {
        #expect(PowerEvent.between(Self.reading(.charging, 57), Self.reading(.discharging, 57)) == [.unplugged(percentage: 57)])
        #expect(PowerEvent.between(Self.reading(.discharging, 57), Self.reading(.charging, 57)) == [.pluggedIn(percentage: 57)])
        #expect(PowerEvent.between(Self.reading(.discharging, 57), Self.reading(.pendingCharge, 57)) == [.pluggedIn(percentage: 57)])
        // Charging to full is no change of charger; neither is a percentage moving.
        #expect(PowerEvent.between(Self.reading(.charging, 99), Self.reading(.fullyCharged, 100)).isEmpty)
        #expect(PowerEvent.between(Self.reading(.discharging, 57), Self.reading(.discharging, 56)).isEmpty)
    }

    @Test func aWarningRisingOnBatteryIsSaidOnceEachLevel() {
        #expect(PowerEvent.between(Self.reading(.discharging, 11), Self.reading(.discharging, 10, warning: .low)) == [.low(percentage: 10)])
        #expect(PowerEvent.between(Self.reading(.discharging, 10, warning: .low), Self.reading(.discharging, 9, warning: .low)).isEmpty)
        #expect(PowerEvent.between(Self.reading(.discharging, 6, warning: .low), Self.reading(.discharging, 5, warning: .critical)) == [.critical(percentage: 5)])
        #expect(PowerEvent.between(Self.reading(.discharging, 3, warning: .critical), Self.reading(.discharging, 2, warning: .action)) == [.critical(percentage: 2)])
        // Unplugged while low: both, the warning last (the one shown).
        #expect(PowerEvent.between(Self.reading(.charging, 8, warning: .low), Self.reading(.discharging, 8, warning: .low))
                == [.unplugged(percentage: 8), .low(percentage: 8)])
        // At start (nothing read before), a low battery is said; a charger is not news.
        #expect(PowerEvent.between(PowerReading(), Self.reading(.discharging, 9, warning: .low)) == [.low(percentage: 9)])
        #expect(PowerEvent.between(PowerReading(), Self.reading(.charging, 50)).isEmpty)
    }

    @Test func noBatteryAndOutOfRangeValuesAreSafe() {
        #expect(PowerEvent.between(Self.reading(.charging, 50, present: false), Self.reading(.discharging, 50, present: false)).isEmpty)
        let wild = PowerReading(properties: ["IsPresent": .bool(true), "Percentage": .double(.nan), "State": .uint32(99), "WarningLevel": .uint32(77)])
        #expect(wild.percentage == 0 && wild.state == .unknown && wild.warning == .unknown)
        #expect(PowerReading(properties: ["Percentage": .double(1e9)]).percentage == 100)
        #expect(PowerReading(properties: ["Percentage": .double(-5)]).percentage == 0)
        // A value of the wrong type is ignored.
        #expect(PowerReading(properties: ["Percentage": .string("57"), "State": .int32(2)]) == PowerReading())
    }

    @Test func theViewsSayWhatHappenedInTheBatterysIcon() {
        #expect(PowerViews.title(.pluggedIn(percentage: 57)) == "Charging" && PowerViews.symbol(.pluggedIn(percentage: 57)) == "battery-low-charging-symbolic")
        #expect(PowerViews.symbol(.critical(percentage: 4)) == "battery-empty-symbolic")
        #expect(PowerViews.symbol(.unplugged(percentage: 95)) == "battery-full-symbolic")
        let activity = PowerViews.activity(.low(percentage: 12))
        #expect(activity.accessibilityLabel == "Battery low, 12%" && activity.peek != nil)
    }
}

@Suite(.serialized) struct PowerBridgeTests {
    /// A UPower display device on `address`: `GetAll`, `PropertiesChanged`, and a test-only
    /// `org.nook.Test.FakeUPower.Change(a{sv})` that sets properties and announces them.
    static func fakeUPower(_ address: String) throws -> HelperProcess {
        try pythonService(address, owning: "org.freedesktop.UPower", """
            DEVICE = "org.freedesktop.UPower.Device"
            class Device(dbus.service.Object):
                def __init__(self):
                    super().__init__(bus, "/org/freedesktop/UPower/devices/DisplayDevice")
                    self.props = {"IsPresent": dbus.Boolean(True), "Type": dbus.UInt32(2), "Percentage": dbus.Double(57.0),
                                  "State": dbus.UInt32(1), "WarningLevel": dbus.UInt32(1)}
                @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="s", out_signature="a{sv}")
                def GetAll(self, interface):
                    return self.props
                @dbus.service.signal(dbus.PROPERTIES_IFACE, signature="sa{sv}as")
                def PropertiesChanged(self, interface, changed, invalidated):
                    pass
                @dbus.service.method("org.nook.Test.FakeUPower", in_signature="a{sv}")
                def Change(self, changed):
                    self.props.update(changed)
                    self.PropertiesChanged(DEVICE, changed, dbus.Array([], signature="s"))
            device = Device()
            """)
    }

    static func change(_ connection: BusConnection, _ properties: [String: DBusValue]) async throws {
        _ = try await connection.call(destination: "org.freedesktop.UPower", path: "/org/freedesktop/UPower/devices/DisplayDevice",
                                      interface: "org.nook.Test.FakeUPower", member: "Change", arguments: [.vardict(properties)])
    }

    @Test func unpluggingLowAndPluggingInPeekAndTheNewsGoesByItself() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            // The private bus stands for both: nookd's session bus and UPower's system bus.
            let system = try PackageProcess("nook-system", ["--address", bus.address, "--system-address", bus.address, "--show-seconds", "1"],
                                            logDirectory: temp.url)
            let client = try await BusConnection.connect(to: .address(bus.address))
            let control = NookControlProxy(client)
            #expect(await eventually { system.log.contains("following power") }, "\(system.log)")
            #expect(system.log.contains("waiting for UPower"), "\(system.log)")
            // UPower comes after: it is read when it takes its name. Charging at 57%: not news.
            let upower = try Self.fakeUPower(bus.address)
            defer { upower.kill() }
            #expect(await eventually { system.log.contains("battery: 57%") }, "\(system.log)")
            #expect(try await control.getState()["module"] != .string("power"))

            // Unplugged: a peek, gone by itself a second later.
            try await Self.change(client, ["State": .uint32(2)])
            // (The broker's log, not its state: a loaded machine may outlast the 1 s between two checks.)
            #expect(await eventually { occurrences(of: "scene: activity_started power/battery", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")
            #expect(system.log.contains("On battery at 57%"), "\(system.log)")
            #expect(await eventually { occurrences(of: "scene: activity_ended power/battery", in: nookd.log) == 1 }, "the news stayed: \(system.log)")

            // Low: it comes and stays while the battery needs power; plugged in, it says so and goes.
            try await Self.change(client, ["Percentage": .double(9), "WarningLevel": .uint32(3)])
            #expect(await eventually { system.log.contains("Battery low at 9%") }, "\(system.log)")
            #expect(await eventually { (try? await control.getState()["activity"]) == .string("battery") })
            try await Self.change(client, ["State": .uint32(1)])
            #expect(await eventually { system.log.contains("Charging at 9%") }, "\(system.log)")
            #expect(await eventually { occurrences(of: "scene: activity_ended power/battery", in: nookd.log) == 2 }, "the charger's news stayed: \(system.log)")
            #expect(try await control.getState()["module"] != .string("power"))

            #expect(await system.stop() == 0, "\(system.log)")
            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    /// The device as python3-dbusmock's `upower` template serves it (how GNOME tests its own
    /// UPower clients): `SetDeviceProperties` sets each property and announces it.
    static func setDisplayDevice(_ connection: BusConnection, _ properties: [String: DBusValue]) async throws {
        _ = try await connection.call(destination: "org.freedesktop.UPower", path: "/org/freedesktop/UPower", interface: "org.freedesktop.DBus.Mock",
                                      member: "SetDeviceProperties",
                                      arguments: [.objectPath("/org/freedesktop/UPower/devices/DisplayDevice"), .vardict(properties)])
    }

    static func batteryShownAndGone(_ log: String) -> Bool {
        let started = occurrences(of: "scene: activity_started power/battery", in: log)
        return started > 0 && started == occurrences(of: "scene: activity_ended power/battery", in: log)
    }

    @Test func dbusmocksUPowerPeeksOnceForUnpluggingALowBatteryAndPluggingIn() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            // The private bus stands for the system bus dbusmock serves UPower on.
            let upower = try PackageProcess("/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "upower"], logDirectory: temp.url,
                                            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            defer { upower.signal(SIGKILL) }
            let client = try await BusConnection.connect(to: .address(bus.address))
            #expect(await eventually { (try? await client.nameOwner(of: "org.freedesktop.UPower")) != nil }, "\(upower.log)")
            // A battery charging at 57%, set up before nook-system reads it (where things stand).
            _ = try await client.call(destination: "org.freedesktop.UPower", path: "/org/freedesktop/UPower", interface: "org.freedesktop.DBus.Mock",
                                      member: "SetupDisplayDevice",
                                      arguments: [.uint32(2), .uint32(1), .double(57), .double(28.5), .double(50), .double(10), .int64(0), .int64(3600),
                                                  .bool(true), .string("battery-good-charging-symbolic"), .uint32(1)])
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess("nook-system", ["--address", bus.address, "--system-address", bus.address, "--show-seconds", "1",
                                                            "--no-brightness", "--no-volume", "--no-privacy", "--no-progress"], logDirectory: temp.url)
            #expect(await eventually { system.log.contains("battery: 57%") }, "\(system.log)")

            try await Self.setDisplayDevice(client, ["State": .uint32(2)])
            #expect(await eventually { system.log.contains("On battery at 57%") }, "\(system.log)")
            try await Self.setDisplayDevice(client, ["Percentage": .double(9)])
            try await Self.setDisplayDevice(client, ["WarningLevel": .uint32(3)])
            #expect(await eventually { system.log.contains("Battery low at 9%") }, "\(system.log)")
            try await Self.setDisplayDevice(client, ["State": .uint32(1)])
            #expect(await eventually { system.log.contains("Charging at 9%") }, "\(system.log)")
            // The charger's news goes by itself (quick changes may have shared one activity).
            #expect(await eventually { Self.batteryShownAndGone(nookd.log) }, "\(system.log)\n\(nookd.log)")
            // Each once: the unplugging's peek, the low battery's (which stayed until the charger came), the plugging's.
            for news in ["On battery at 57%", "Battery low at 9%", "Charging at 9%"] {
                #expect(system.log.components(separatedBy: news).count - 1 == 1, "\(news): \(system.log)")
            }

            #expect(await system.stop() == 0, "\(system.log)")
            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
