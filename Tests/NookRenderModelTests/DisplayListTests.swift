import NookCore
@testable import NookRenderModel
import Testing

@Test func anEmptyDisplayListDrawsNothing() {
    let list = DisplayList()
    #expect(list.chrome == nil && list.items.isEmpty)
}
