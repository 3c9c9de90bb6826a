import Testing
@testable import NookCore

/// NodeProps is stored sparsely (issue 21, memory); these pin the size and that sparseness
/// never shows through equality or hashing.
@Suite struct NodePropsStorageTests {
    @Test func aViewNodeIsAFewWords() {
        // Was 552 bytes with every prop inline; the RSS goal at 256 x 4 depends on it.
        #expect(MemoryLayout<ViewNode>.stride <= 96)
    }

    @Test func aPropSetThenClearedEqualsOneNeverSet() {
        var props = NodeProps()
        props.width = 12
        props.fontWeight = "bold"
        #expect(props != NodeProps())
        props.width = nil
        props.fontWeight = nil
        #expect(props == NodeProps())
        #expect(props.hashValue == NodeProps().hashValue)
    }

    @Test func copiesDoNotShareWrites() {
        var first = NodeProps()
        first.symbol = "play"
        first.cornerRadius = 4
        var second = first
        second.symbol = "pause"
        #expect(first.symbol == "play")
        #expect(second.symbol == "pause")
        #expect(second.cornerRadius == 4)
        #expect(first != second)
        second.symbol = "play"
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }
}
