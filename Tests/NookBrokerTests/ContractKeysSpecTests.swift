import Testing
@testable import NookBroker
import NookCore

/// The spec half of `ContractKeys` (docs/contract.md's "Keys and types") held to the
/// registry's readers: the same keys for `StartActivity`, `UpdateActivity` and `EndActivity`,
/// and each refused, when sent as another type, with a message naming the documented type.
@Suite struct ContractKeysSpecTests {
    let owner = ":1.10"

    func rows(_ places: ContractKey.Place...) -> [ContractKey] { ContractKeys.all.filter { places.contains($0.place) } }

    @Test func specKeysAreTheRegistrysKeys() {
        #expect(Set(rows(.activity).map(\.key)) == Registry.startKeys)
        #expect(Set(rows(.activity, .update).map(\.key)) == Registry.updateKeys)
        #expect(Set(rows(.end).map(\.key)) == Registry.endKeys)
    }

    /// A value of another type than `type`.
    static func wrong(for type: ContractKey.WireType) -> PropValue { type == .bool ? .string("x") : .bool(true) }

    @Test func eachSpecKeyIsReadAsItsDocumentedType() throws {
        var failures: [String] = []
        func check(_ row: ContractKey, _ call: (inout Registry, [String: PropValue]) throws(RegistryError) -> Void) throws {
            var registry = Registry()
            _ = try registry.register(module: "build", info: [:], caller: owner, now: .zero)
            _ = try registry.startActivity("job", spec: Fixtures.spec(), caller: owner, now: .zero)
            do {
                try call(&registry, [row.key: Self.wrong(for: row.type)])
                failures.append("\(row.key): another type is accepted")
            } catch {
                if !error.message.contains("'\(row.key)': expected type \(row.type.rawValue)") {
                    failures.append("\(row.key): refused as \(error.message), not as a \(row.type.rawValue)")
                }
            }
        }
        for row in rows(.activity) {
            try check(row) { (registry, values) throws(RegistryError) in
                _ = try registry.startActivity("other", spec: Fixtures.spec().merging(values) { $1 }, caller: owner, now: .zero)
            }
        }
        for row in rows(.activity, .update) {
            try check(row) { (registry, values) throws(RegistryError) in
                _ = try registry.updateActivity("job", changes: values, caller: owner, now: .zero)
            }
        }
        for row in rows(.end) {
            try check(row) { (registry, values) throws(RegistryError) in
                _ = try registry.endActivity("job", options: values, caller: owner, now: .zero)
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
