import Foundation
import Testing
@testable import NookBroker
import NookCore

/// `StateStore.encoded` writes the state file one module at a time (so a big state's encoder
/// values are never alive at once) and must give exactly the bytes of encoding it whole.
@Suite struct StateFileEncodingTests {
    static func whole(_ file: StateFile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(file)
    }

    @Test func piecesGiveTheBytesOfTheWholeEncoding() throws {
        let registry = try PersistenceTests().populated()
        let files = [
            StateFile(registry: .empty),
            StateFile(registry: registry.snapshot),
            StateFile(registry: registry.snapshot, presentation: .dictionary(["state": .string("expanded"), "modules": .array([])]),
                      settings: ["reduce_motion": .bool(true)], tokens: ["transition.peek": .string("240ms/\"q\"")]),
        ]
        for file in files {
            let pieces = try StateStore.encoded(file)
            #expect(pieces == (try Self.whole(file)), "\(String(decoding: pieces, as: UTF8.self).prefix(300))")
            #expect(try JSONDecoder().decode(StateFile.self, from: pieces) == file)
        }
    }
}
