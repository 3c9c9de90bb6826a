import Testing
@testable import NookCore

/// `PreparedSlot.withNode` checks a path's root with a byte comparison when it can; it must
/// answer as `String.hasPrefix` does.
@Suite struct PreparedSlotPathTests {
    @Test func bytePrefixAgreesWithHasPrefix() {
        let roots = ["expanded", "compact_leading:music/song", "minimal:timer/t1", "", "é", "e\u{301}", "a\r"]
        let tails = ["", "/0", "/0/12", "x", "/", "\u{301}", "\n/0", "é/1", "d", "ed/0"]
        var mismatches: [String] = []
        for root in roots {
            for other in roots {
                for tail in tails {
                    let path = other + tail
                    if PreparedSlot.path(path, startsWith: root) != path.hasPrefix(root) {
                        mismatches.append("\(path.debugDescription) / \(root.debugDescription)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }
}
