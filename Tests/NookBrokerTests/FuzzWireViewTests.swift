import Foundation
import NookTestSupport
import Testing
import NookBus
import NookCore

/// Bounded fuzzing of the view decoder in `make test`: random D-Bus values (most of them
/// almost views) through `RawNode(wire:)` and the `ViewValidator`, in process. The oracle: no
/// crash, and every refusal is a typed error that maps to a contract D-Bus error with a path.
@Suite struct FuzzWireViewTests {
    @Test func randomWireValuesDecodeOrFailWithAPath() {
        let seed = UInt64.random(in: 0 ... .max)
        var rng = SeededGenerator(seed: seed)
        let validator = ViewValidator()
        let contract = Set(NookErrorName.allCases.map(\.rawValue))
        var decoded = 0, valid = 0
        for round in 0..<2000 {
            let value: DBusValue = Int.random(in: 0..<8, using: &rng) == 0
                ? BadInputTests.value(&rng, depth: 0) : BadInputTests.node(&rng, depth: 0)
            do {
                let raw = try RawNode(wire: value, at: "expanded")
                decoded += 1
                do {
                    _ = try validator.validate(raw, slot: "expanded")
                    valid += 1
                } catch {
                    let name = DBusError(error).name
                    #expect(contract.contains(name), "seed \(seed) round \(round): \(name)")
                    #expect(!error.path.isEmpty || error.message.contains("expanded"), "seed \(seed) round \(round): \(error)")
                }
            } catch {
                #expect(error.path.hasPrefix("expanded"), "seed \(seed) round \(round): \(error)")
            }
        }
        #expect(decoded > 100, "seed \(seed): the generator rarely makes nodes (\(decoded))")
        _ = valid
    }
}
