import NookCore
import NookBus

// Step 5 of how a module keeps the broker in step (NookModule+Link.swift): when the bus
// itself goes away, the module reconnects to the same address with a backoff, then starts
// again at step 1 on the new connection.

extension NookModule {
    /// Tries to connect again, 50 ms after the loss and then doubling up to 1 s between tries,
    /// until a connection is adopted or the module is closed (which cancels the task).
    func startReconnecting() {
        guard reconnector == nil else { return }
        let address = self.address
        reconnector = Task { [weak self] in
            var delay = Duration.milliseconds(50)
            while !Task.isCancelled {
                try? await Task.sleep(for: delay)
                if Task.isCancelled { return }
                if let connection = try? await NookModule.openConnection(address, reconnecting: true) {
                    guard let self else {
                        await connection.close()
                        return
                    }
                    await self.adopt(connection)
                    return
                }
                if self == nil { return }
                delay = min(delay * 2, .seconds(1))
            }
        }
    }

    /// Takes a new bus connection in place of the lost one and starts following the broker on
    /// it, synchronising as a reconnect. A loss during this start-up starts reconnecting again.
    func adopt(_ newConnection: BusConnection) async {
        reconnector = nil
        guard !isClosed else {
            await newConnection.close()
            return
        }
        let old = connection
        connection = newConnection
        busLost = false
        await old.close()
        do {
            try await follow(initial: false)
        } catch {
            // The new connection failed before the module could follow the broker on it.
            await newConnection.close()
            busClosed()
        }
    }

    /// Opens a bus connection for a module.
    ///
    /// On a reconnect the `guid=` key is dropped from the address: it names the bus daemon
    /// instance the address was printed by, and sd-bus refuses a server whose guid differs.
    /// A restarted daemon listens at the same path with a new guid, so keeping the key would
    /// make every reconnect fail.
    static func openConnection(_ address: NookModuleAddress, reconnecting: Bool) async throws -> BusConnection {
        switch address {
        case .session:
            return try await BusConnection.connect(to: .session, description: "nook-module")
        case .bus(let text):
            let target = reconnecting ? withoutGUID(text) : text
            return try await BusConnection.connect(to: .address(target), description: "nook-module")
        }
    }

    /// `address` with every `guid=...` key removed, in each of its `;`-separated entries.
    static func withoutGUID(_ address: String) -> String {
        address.split(separator: ";", omittingEmptySubsequences: false).map { entry -> String in
            guard let colon = entry.firstIndex(of: ":") else { return String(entry) }
            let transport = entry[..<colon]
            let keys = entry[entry.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: true)
                .filter { !$0.hasPrefix("guid=") }
            return transport + ":" + keys.joined(separator: ",")
        }.joined(separator: ";")
    }

    /// Asks the bus to start the broker (D-Bus activation); where nothing can start it, the
    /// module simply waits for one to appear.
    func requestActivation() {
        let connection = self.connection
        Task {
            _ = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "StartServiceByName", arguments: [.string(Self.brokerName), .uint32(0)])
        }
    }
}
