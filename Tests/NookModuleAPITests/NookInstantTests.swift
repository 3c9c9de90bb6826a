import Testing
import NookCore
@testable import NookModuleAPI

// Instant arithmetic cannot trap (issue 38, finding 4): a media player's length of `Int64.max`
// microseconds added to now used to overflow and end nook-mpris.

@Test func instantArithmeticSaturatesInsteadOfTrapping() {
    let now = NookInstant(unixMicroseconds: 1_800_000_000_000_000)
    #expect((now + .microseconds(Int64.max)).unixMicroseconds == .max)
    #expect((now - .microseconds(Int64.max)).unixMicroseconds == 1_800_000_000_000_000 - Int64.max)
    #expect((now - .microseconds(Int64.min)).unixMicroseconds == .max)
    #expect((now + .seconds(Int64.max)).unixMicroseconds == .max)
    #expect((now + .seconds(Int64.min)).unixMicroseconds == .min)
    #expect((NookInstant(unixMicroseconds: .max) - NookInstant(unixMicroseconds: .min)) == .microseconds(Int128(Int64.max) * 2 + 1))
    #expect(NookInstant(unixSeconds: 1e300).unixMicroseconds == .max)
    #expect(NookInstant(unixSeconds: -.infinity).unixMicroseconds == .min)
    #expect(NookInstant(unixSeconds: .nan).unixMicroseconds == 0)
    // Ordinary times are exact, as before.
    #expect((now + .milliseconds(1500)).unixMicroseconds == 1_800_000_001_500_000)
    #expect((now - .microseconds(7)).unixMicroseconds == 1_799_999_999_999_993)
    #expect(NookInstant(unixSeconds: 1.25).unixMicroseconds == 1_250_000)
}
