@testable import NookBus
import Testing

/// The session bus is found as `sd_bus_open_user` finds it, now that connections are set up by
/// hand (to refuse descriptors before the connection starts).
struct BusAddressTests {
    @Test func theSessionBusComesFromTheEnvironmentAsSdBusFindsIt() {
        let both = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/x", "XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(BusAddress.session.resolved(environment: { both[$0] }) == "unix:path=/tmp/x")
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(BusAddress.session.resolved(environment: { runtime[$0] }) == "unix:path=/run/user/7/bus")
        let odd = ["XDG_RUNTIME_DIR": "/run/a b;c=é"]
        #expect(BusAddress.session.resolved(environment: { odd[$0] }) == "unix:path=/run/a%20b%3bc%3d%c3%a9/bus")
        #expect(BusAddress.session.resolved(environment: { _ in nil }) == nil)
        #expect(BusAddress.session.resolved(environment: { $0 == "XDG_RUNTIME_DIR" ? "relative" : nil }) == nil)
        #expect(BusAddress.address("unix:abstract=x").resolved(environment: { _ in nil }) == "unix:abstract=x")
    }
}
