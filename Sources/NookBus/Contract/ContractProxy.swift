import NookCore

/// What the generated proxies (`NookModulesProxy`, `NookControlProxy`, `NookRenderProxy`,
/// `NookNotificationsProxy`) share: the connection, whom they call, and the four ways of
/// reaching a member.
public protocol ContractProxy: Sendable {
    var connection: BusConnection { get }
    /// The unique or well-known name called: `org.nook.Nook1`, or the one broker a module follows.
    var destination: String { get }
    var path: ObjectPath { get }
    var timeout: Duration { get }
}

/// A signal subscription; the match stays until the connection closes or it is removed.
public typealias SignalSubscription = MatchToken

extension ContractProxy {
    /// Calls `method` with `arguments`, which the generated member put in the declared order.
    public func call(_ method: ContractMethod, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: destination, path: path, interface: method.interface, member: method.name,
            arguments: arguments, timeout: timeout)
    }

    public func subscribe(to signal: ContractSignal, _ handler: @escaping @Sendable ([DBusValue]) -> Void) async throws -> SignalSubscription {
        try await connection.addMatch(signal.matchRule) { handler($0.arguments) }
    }

    /// `subscribe(to:_:)` for a signal whose one argument is an `a{sv}` (`Render.Plan`): the
    /// handler gets it read straight into props (`BusConnection.addMatchReadingProps(_:deliver:)`).
    public func subscribeReadingProps(to signal: ContractSignal, _ handler: @escaping @Sendable (Result<PropValue, WireDecodingError>) -> Void) async throws -> SignalSubscription {
        try await connection.addMatchReadingProps(signal.matchRule, deliver: handler)
    }

    public func get<T: DBusConvertible>(_ property: ContractProperty, as type: T.Type = T.self) async throws -> T {
        let reply = try await connection.call(
            destination: destination, path: path, interface: NookNames.propertiesInterface, member: "Get",
            arguments: [.string(property.interface), .string(property.name)], timeout: timeout)
        guard reply.count == 1, case .variant(let value) = reply[0] else {
            throw DBusError(.invalidArgs, "Get(\(property.name)) replied (\(reply.map(\.signatureText).joined())); expected (v)")
        }
        do { return try T(dbusValue: value) } catch {
            throw DBusError(.invalidArgs, "\(property.name) is '\(value.signatureText)'; the contract says '\(property.signature)'")
        }
    }

    public func set(_ property: ContractProperty, _ value: DBusValue) async throws {
        _ = try await connection.call(
            destination: destination, path: path, interface: NookNames.propertiesInterface, member: "Set",
            arguments: [.string(property.interface), .string(property.name), .variant(value)], timeout: timeout)
    }
}
