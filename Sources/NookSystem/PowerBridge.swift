import NookBus
import NookCore
import NookModuleAPI

/// Power in the nook, from UPower on the system bus: a peek when a charger is plugged in or
/// unplugged (with the percentage), and when the battery turns low and critical. Nothing is
/// polled: it reads the display device once, then wakes only for UPower's `PropertiesChanged`.
/// A machine without a battery (or without UPower) gets nothing, silently.
public actor PowerBridge {
    public static let upower = "org.freedesktop.UPower"
    public static let displayDevice: ObjectPath = "/org/freedesktop/UPower/devices/DisplayDevice"
    public static let deviceInterface = "org.freedesktop.UPower.Device"

    /// How long a plug event stays in the nook; a low or critical battery stays until a charger comes.
    public var showFor: Duration
    let log: @Sendable (String) -> Void
    private let display: ShownActivity
    private var reading = PowerReading()

    init(module: NookModule, showFor: Duration, log: @escaping @Sendable (String) -> Void) {
        self.display = ShownActivity(module: module, log: log)
        self.showFor = showFor
        self.log = log
    }

    /// Follows UPower on `system` for `module`; returns once listening (the first reading shown
    /// if it is a warning).
    public static func start(system: BusConnection, module: NookModule, showFor: Duration = .seconds(4),
                             log: @escaping @Sendable (String) -> Void) async throws -> PowerBridge {
        let bridge = PowerBridge(module: module, showFor: showFor, log: log)
        // Listening first, then reading: no change between the two is lost.
        _ = try await system.addMatch(MatchRule(path: displayDevice, interface: NookNames.propertiesInterface, member: "PropertiesChanged")) { signal in
            guard signal.arguments.count >= 2, case .string(deviceInterface) = signal.arguments[0],
                  let changed = try? Vardict(signal.arguments[1]) else { return }
            Task { await bridge.changed(changed.values) }
        }
        // UPower started later, or restarted: read it again when it takes its name.
        let owners = try await system.nameOwnerChanges(of: upower)
        Task {
            for await change in owners where !change.newOwner.isEmpty {
                await bridge.read(from: system)
            }
        }
        await bridge.read(from: system)
        return bridge
    }

    /// Reads the whole device (`GetAll`): at start, and whenever UPower (re)appears.
    func read(from system: BusConnection) async {
        do {
            let reply = try await system.call(destination: Self.upower, path: Self.displayDevice, interface: NookNames.propertiesInterface,
                                              member: "GetAll", arguments: [.string(Self.deviceInterface)], timeout: .seconds(5))
            guard let first = reply.first, let properties = try? Vardict(first) else { return }
            let old = reading
            reading = PowerReading(properties: properties.values)
            log("battery: \(reading.isPresent ? "\(Int(reading.percentage))%, \(reading.state)" : "none")")
            // At start (nothing read before) only a warning is news; a charger is not.
            for event in PowerEvent.between(old, reading).suffix(1) { await show(event) }
        } catch {
            log("no battery to follow yet (\(error)); waiting for UPower")
        }
    }

    func changed(_ properties: [String: DBusValue]) async {
        let old = reading
        reading.apply(changed: properties)
        // Unplugged while already low: the warning says both.
        guard let event = PowerEvent.between(old, reading).last else { return }
        await show(event)
    }

    func show(_ event: PowerEvent) async {
        log("\(PowerViews.title(event)) at \(Int(event.percentage.rounded()))%")
        // A warning stays while the battery needs power; news of a charger goes after a moment.
        await display.show(PowerViews.activity(event), peekFor: showFor, endAfter: reading.needsPower ? nil : showFor)
    }
}
