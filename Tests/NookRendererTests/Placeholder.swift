import Testing

@Test func rendererTestsArePending() { #expect(Bool(true)) }
