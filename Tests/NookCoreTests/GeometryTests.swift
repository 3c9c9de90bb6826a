import Testing
@testable import NookCore
@Test func rectContainsItself() { let r = Rect(x: 1, y: 2, width: 3, height: 4); #expect(r.contains(r)) }
