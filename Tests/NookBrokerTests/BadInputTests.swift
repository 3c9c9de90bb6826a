import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// Random, mostly wrong input from a seeded generator: nookd answers every call with a reply
/// or a contract error and keeps serving, and the other module's state stays as it was.
@Suite struct BadInputTests {

    static let keys = [
        "accessibility_label", "compact_leading", "compact_trailing", "minimal", "peek", "expanded", "relevance",
        "stale_date", "sequence", "animate", "animation", "dismissal", "module", "display_name", "shared", "text",
        "width", "padding", "params", "zz-unknown", "",
    ]
    static let kinds = ["vstack", "hstack", "text", "image", "shape", "progress", "spacer", "view", "blob", ""]

    static func value(_ rng: inout SeededGenerator, depth: Int) -> DBusValue {
        let choice = depth > 3 ? Int.random(in: 0..<7, using: &rng) : Int.random(in: 0..<11, using: &rng)
        switch choice {
        case 0: return .string(["", "x", "co ver", "#fff", "default", "immediate", String(repeating: "é", count: 3000)].randomElement(using: &rng)!)
        case 1: return .double([0, -1, .nan, .infinity, 1e300, 0.5].randomElement(using: &rng)!)
        case 2: return .int64(Int64.random(in: .min ... .max, using: &rng))
        case 3: return .uint64(UInt64.random(in: 0...10, using: &rng))
        case 4: return .bool(Bool.random(using: &rng))
        case 5: return .int32(Int32.random(in: -5...5, using: &rng))
        case 6: return .byte(UInt8.random(in: 0...255, using: &rng))
        case 7: return dict(&rng, depth: depth + 1)
        case 8: return node(&rng, depth: depth + 1)
        case 9: return .array(element: "d", (0..<Int.random(in: 0...4, using: &rng)).map { _ in .double(Double.random(in: -1...1, using: &rng)) })
        default: return .structure((0..<Int.random(in: 1...4, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        }
    }

    static func dict(_ rng: inout SeededGenerator, depth: Int) -> DBusValue {
        var entries: [DBusValue.DictEntry] = []
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            entries.append(.init(.string(keys.randomElement(using: &rng)!), .variant(value(&rng, depth: depth))))
        }
        return .dictionary(key: "s", value: "v", entries)
    }

    static func node(_ rng: inout SeededGenerator, depth: Int) -> DBusValue {
        let children = depth > 3 ? [] : (0..<Int.random(in: 0...3, using: &rng)).map { _ in DBusValue.variant(node(&rng, depth: depth + 1)) }
        return .structure([.string(kinds.randomElement(using: &rng)!), dict(&rng, depth: depth), .array(element: "v", children)])
    }

    @Test func randomCallsNeverHurtTheBrokerOrOtherModules() async throws {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let bystander = try await BrokerClient.connect(bus)
            try await bystander.register("calm")
            try await bystander.start("steady", BrokerIntegrationTests.spec(relevance: 1000))
            let noisy = try await BrokerClient.connect(bus)
            try await noisy.register("noisy")
            let contractErrors = Set(NookErrorName.allCases.map(\.rawValue))
            for round in 0..<300 {
                let activity = ["a", "b", "bad id", "calm", ""].randomElement(using: &rng)!
                let call: (String, [DBusValue]) =
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: ("StartActivity", [.string(activity), Self.dict(&rng, depth: 0)])
                    case 1: ("UpdateActivity", [.string(activity), Self.dict(&rng, depth: 0)])
                    case 2: ("EndActivity", [.string(activity), Self.dict(&rng, depth: 0)])
                    case 3: ("SetContent", [.string(["home", "widget", "minimal", "compact_leading"].randomElement(using: &rng)!), Self.node(&rng, depth: 0)])
                    case 4: ("Register", [.string(["noisy", "calm", "x y"].randomElement(using: &rng)!), Self.dict(&rng, depth: 0)])
                    default: ("ClearContent", [.string(["home", "nope"].randomElement(using: &rng)!)])
                    }
                do {
                    try await noisy.call(call.0, call.1)
                } catch let error as DBusError {
                    #expect(contractErrors.contains(error.name), "seed \(seed) round \(round): \(call.0) -> \(error)")
                }
            }
            #expect(nookd.isRunning, "seed \(seed): \(nookd.log)")
            let order = try await bystander.activities()
            #expect(order.first == "calm/steady", "seed \(seed)")
            try await bystander.update("steady", ["accessibility_label": .string("still here")])
            await noisy.close()
            await bystander.close()
            #expect(await nookd.stop() == 0, "seed \(seed): \(nookd.log)")
        }
    }
}
