import Testing

@testable import NookNotifications

/// The bridge's one expiry timer: the soonest deadline, a replacement moving it, and what is due.
struct ExpiryDeadlinesTests {
    let start = ContinuousClock.now

    @Test func theTimerSleepsUntilTheSoonestDeadline() {
        var deadlines = ExpiryDeadlines()
        #expect(deadlines.earliest == nil)
        deadlines.set(1, at: start + .seconds(10), generation: 1)
        deadlines.set(2, at: start + .seconds(5), generation: 1)
        #expect(deadlines.earliest == start + .seconds(5))
        deadlines.remove(2)
        #expect(deadlines.earliest == start + .seconds(10))
    }

    /// A progress script replacing its notification moves the deadline later: the timer armed
    /// for the old one wakes, finds nothing due, and sleeps on until the new one.
    @Test func aReplacementMovesItsDeadlineAndAnEarlyWakeFindsNothingDue() {
        var deadlines = ExpiryDeadlines()
        deadlines.set(7, at: start + .seconds(10), generation: 1)
        deadlines.set(7, at: start + .seconds(12), generation: 2)
        #expect(deadlines.takeDue(at: start + .seconds(10)).isEmpty)
        #expect(deadlines.earliest == start + .seconds(12))
        let due = deadlines.takeDue(at: start + .seconds(12))
        #expect(due.map(\.id) == [7])
        #expect(due.map(\.generation) == [2])
        #expect(deadlines.earliest == nil)
    }

    @Test func everythingDueIsTakenSoonestFirstAndTheRestStays() {
        var deadlines = ExpiryDeadlines()
        deadlines.set(3, at: start + .seconds(3), generation: 1)
        deadlines.set(1, at: start + .seconds(1), generation: 1)
        deadlines.set(9, at: start + .seconds(9), generation: 1)
        #expect(deadlines.takeDue(at: start + .seconds(5)).map(\.id) == [1, 3])
        #expect(deadlines.earliest == start + .seconds(9))
    }
}
