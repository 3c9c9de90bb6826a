import Testing
@testable import NookBus
import NookTestSupport

/// `BusExecutor.runAfterNextSleep`: work that waits until the thread has slept and woken,
/// without a wake-up of its own (the broker frees replaced plans this way).
@Suite struct RunAfterNextSleepTests {
    static let path: ObjectPath = "/org/nook/Test/Sleep"
    static let interface = "org.nook.Test.Sleep"

    @Test func itRunsAfterTheWorkTheThreadWokeForAndNotBefore() async throws {
        try await PrivateBus.with { bus in
            let sleeper = try await BusConnection.connect(to: .address(bus.address))
            let caller = try await BusConnection.connect(to: .address(bus.address))
            let log = Locked<[String]>([])
            _ = try await sleeper.export([DBusInterface(Self.interface, methods: [
                DBusMethod("Mark") { _ in
                    log.withLock { $0.append("handled") }
                    return []
                },
            ])], at: Self.path)
            // Set on the thread itself, so that the count it waits to pass is that of a thread
            // awake: a fallback of an hour leaves only a wake-up to run it.
            let executor = sleeper.executor
            executor.runOnce(after: .zero) {
                executor.runAfterNextSleep(orAfter: .seconds(3600), whileBusyAfter: .seconds(3600)) { log.withLock { $0.append("released") } }
                log.withLock { $0.append("set") }
            }
            #expect(try await eventually { log.withLock { $0 } == ["set"] })
            _ = try await caller.call(destination: sleeper.uniqueName, path: Self.path, interface: Self.interface, member: "Mark")
            #expect(try await eventually { log.withLock { $0.count } == 3 })
            #expect(log.withLock { $0 } == ["set", "handled", "released"])
            await sleeper.close()
            await caller.close()
        }
    }

    @Test func withNothingToWakeTheThreadTheFallbackRunsIt() async throws {
        try await PrivateBus.with { bus in
            let sleeper = try await BusConnection.connect(to: .address(bus.address))
            let ran = Locked(false)
            let executor = sleeper.executor
            executor.runOnce(after: .zero) {
                executor.runAfterNextSleep(orAfter: .milliseconds(20), whileBusyAfter: .seconds(3600)) { ran.withLock { $0 = true } }
            }
            #expect(try await eventually { ran.withLock { $0 } })
            await sleeper.close()
        }
    }

    @Test func aCancelledOneNeverRuns() async throws {
        try await PrivateBus.with { bus in
            let sleeper = try await BusConnection.connect(to: .address(bus.address))
            let log = Locked<[String]>([])
            let executor = sleeper.executor
            executor.runOnce(after: .zero) {
                let timer = executor.runAfterNextSleep(orAfter: .milliseconds(1), whileBusyAfter: .seconds(3600)) { log.withLock { $0.append("cancelled one") } }
                executor.cancel(timer)
                // Set after it, with the same fallback: once this has run, the other would have.
                executor.runAfterNextSleep(orAfter: .milliseconds(1), whileBusyAfter: .seconds(3600)) { log.withLock { $0.append("kept") } }
            }
            #expect(try await eventually { !log.withLock { $0 }.isEmpty })
            #expect(log.withLock { $0 } == ["kept"])
            await sleeper.close()
        }
    }

    /// A thread that does not sleep (a flood) runs them between turns once their busy spell is
    /// over, rather than holding them until the fallback.
    @Test func aThreadThatDoesNotSleepRunsItAfterItsBusySpell() async throws {
        try await PrivateBus.with { bus in
            let busy = try await BusConnection.connect(to: .address(bus.address))
            let ranWithoutSleeping = Locked<Bool?>(nil)
            let executor = busy.executor
            executor.runOnce(after: .zero) {
                let sleeps = executor.sleepCount
                executor.runAfterNextSleep(orAfter: .seconds(3600), whileBusyAfter: .milliseconds(2)) {
                    ranWithoutSleeping.withLock { $0 = executor.sleepCount == sleeps }
                }
                // Busy, not asleep, past the spell: the turn this job ends runs it.
                let start = ContinuousClock.now
                while start.duration(to: .now) < .milliseconds(3) {}
            }
            #expect(try await eventually { ranWithoutSleeping.withLock { $0 } != nil })
            #expect(ranWithoutSleeping.withLock { $0 } == true)
            await busy.close()
        }
    }

    /// `BusExecutor.sleep(for:)`: a task that prefers the executor sleeps on its timer and goes
    /// on on its thread.
    @Test func aTaskSleepingOnTheExecutorGoesOnOnItsThread() async throws {
        try await PrivateBus.with { bus in
            let connection = try await BusConnection.connect(to: .address(bus.address))
            let executor = connection.executor
            let (onThread, slept) = await Task(executorPreference: executor) {
                let start = ContinuousClock.now
                await executor.sleep(for: .milliseconds(20))
                return (executor.isCurrentThread, start.duration(to: .now))
            }.value
            #expect(onThread)
            #expect(slept >= .milliseconds(20))
            await connection.close()
        }
    }
}
