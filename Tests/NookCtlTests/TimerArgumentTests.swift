import Foundation
import NookCore
import Testing
@testable import NookCtlKit

/// `nookctl timer start|list|cancel` on the command line (issue 43, part 5): what each parses
/// to and calls, the activity a start publishes, and the usage errors (exit 2, no bus touched).
@Suite struct TimerArgumentTests {
    func timer(_ arguments: [String]) throws -> TimerCommand {
        guard case .timer(let command) = try ArgumentParser.parse(arguments).command else { throw ActivityProblem("not a timer command") }
        return command
    }

    @Test func startTakesADurationALabelAnIdAndNoSound() throws {
        guard case .start(let tea) = try timer(["timer", "start", "10m", "--label", "Tea"]) else { Issue.record("not a start"); return }
        #expect(tea.seconds == 600 && tea.label == "Tea" && tea.id == "tea" && tea.playsSound)
        guard case .start(let plain) = try timer(["timer", "start", "1h30m", "--id", "oven", "--no-sound"]) else { Issue.record("not a start"); return }
        #expect(plain.seconds == 5400 && plain.label == nil && plain.id == "oven" && !plain.playsSound)
        guard case .start(let unnamed) = try timer(["timer", "start", "90s"]) else { Issue.record("not a start"); return }
        #expect(unnamed.id == nil, "an unnamed timer's id is chosen when it starts")
        // What it publishes: a countdown titled with its label, the timer symbol.
        let request = tea.request(id: "tea")
        #expect(request.module == "timer" && request.activity == "tea")
        #expect(request.content.title == .set("Tea") && request.content.symbol == .set("timer") && request.content.timer == .set(600))
        #expect(plain.request(id: "oven").content.title == .set("Timer"))
        #expect(Command.timer(.start(tea)).calls.map(\.method.name) == ["GetState", "Register", "StartActivity"])
    }

    @Test func listAndCancelParse() throws {
        #expect(try timer(["timer", "list"]) == .list(json: false))
        #expect(try timer(["timer", "list", "--json"]) == .list(json: true))
        #expect(try timer(["timer", "cancel"]) == .cancel(id: nil))
        #expect(try timer(["timer", "cancel", "timer/tea"]) == .cancel(id: "tea"))
        #expect(try timer(["timer", "cancel", "tea"]) == .cancel(id: "tea"))
    }

    @Test(arguments: [
        ["timer", "start"], ["timer", "start", "soon"], ["timer", "start", "0s"], ["timer", "start", "25h"],
        ["timer", "start", "5m", "--label", ""], ["timer", "start", "5m", "--id", "bad id"], ["timer", "cancel", "a$b"],
    ])
    func badArgumentsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
    }

    @Test(arguments: [("Tea", "tea"), ("Pasta (al dente)", "pasta-al-dente"), ("  ", nil), ("Ω", nil), ("2 Eggs!", "2-eggs")] as [(String, String?)])
    func aLabelNamesTheTimer(label: String, id: String?) {
        #expect(TimerStart.id(fromLabel: label) == id)
    }

    @Test func anUnnamedTimerTakesTheFirstFreeNumber() {
        #expect(TimerStart.freeID(notIn: []) == "timer")
        #expect(TimerStart.freeID(notIn: ["timer"]) == "timer-2")
        #expect(TimerStart.freeID(notIn: ["timer", "timer-2", "tea"]) == "timer-3")
    }

    @Test func theListSaysWhatIsLeftOrDone() {
        let now: Int64 = 1_800_000_000_000_000
        var tea = ActivityContent(title: "Tea")
        tea.timerEnd = now + 90_000_000
        var eggs = ActivityContent(title: "Eggs")
        eggs.timerEnd = now - 1
        let text = TimerRow.text([TimerRow(id: "tea", content: tea, now: now), TimerRow(id: "eggs", content: eggs, now: now),
                                  TimerRow(id: "other", content: nil, now: now)])
        #expect(text == "timer/tea    Tea   1m30s left\ntimer/eggs   Eggs  done\ntimer/other        \n")
    }
}
